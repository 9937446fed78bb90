from mmengine.runner import Runner

one = dict(launcher="none", env_cfg=dict(dist_cfg=dict(backend="nccl")))
keyed = {"launcher": "none", "env_cfg": {"dist_cfg": dict(backend="nccl")}}
slurm = dict(launcher="slurm", env_cfg=dict(dist_cfg=dict(backend="nccl")))


def unset():
    return dict(env_cfg=dict(dist_cfg=dict(backend="nccl")))


runner = Runner(model=None, launcher="none", env_cfg=dict(dist_cfg=dict(backend="nccl")))
