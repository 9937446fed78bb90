import os


def launch(args):
    if os.environ.get("PJRT_DEVICE", "") == "TPU":
        import torch_xla.distributed.xla_multiprocessing as xmp
        xmp.spawn(args.fn)


def launch_tpu_name():
    if "TPU_NAME" in os.environ:
        import torch_xla.runtime as xr
        return xr.world_size()


def tpu_pod_launcher(args):
    import torch_xla.distributed.xla_dist as xla_dist
    return xla_dist.get_args_parser()


def output_launcher(args):
    import torch_xla.runtime as xr
    return xr.world_size()
