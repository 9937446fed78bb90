import importlib

import torch

if importlib.util.find_spec("deepspeed"):
    from deepspeed.ops.adam import DeepSpeedCPUAdam, FusedAdam


class Model(torch.nn.Module):
    def configure_optimizers(self, groups, offload):
        if offload:
            return DeepSpeedCPUAdam(groups, lr=1e-3)
        return FusedAdam(groups, lr=1e-3)  # unbound without deepspeed: NameError
