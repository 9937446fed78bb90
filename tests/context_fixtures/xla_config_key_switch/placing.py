def place(model, cfg):
    if cfg.get("use_tpu", False):
        import torch_xla.core.xla_model as xm

        return model.to(xm.xla_device())
    return model
