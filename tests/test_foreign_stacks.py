"""A folder whose Python imports another stack and never PyTorch is that stack's version of the model: every
finding below it is guarded `other-framework`, but a script there that names torch, a folder with a torch import,
one importing no other stack, and the repository root stay (project/foreign_stacks.py)."""
from conftest import guarded_rows, write

PADDLE_TRAIN = """\
import paddle
import paddle.distributed as dist


def main():
    dist.init_parallel_env()
    model = paddle.vision.models.resnet50()
    return model
"""

PADDLE_UTILS = """\
import numpy as np


def to_int(a):
    return a.astype(np.int)
"""

PADDLE_SH = """\
python -m paddle.distributed.launch --gpus=0,1,2,3 tools/train.py --fp16 True
"""

TORCH_SH = """\
torchrun --nproc_per_node=4 ../arcface_torch/train.py
export CUDA_VISIBLE_DEVICES=0,1,2,3
"""

TORCH_TRAIN = """\
import numpy as np
import torch


def main():
    model = torch.nn.Linear(2, 2).cuda()
    return model, np.zeros(2).astype(np.int)
"""

HELPER = """\
import numpy as np


def to_int(a):
    return a.astype(np.int)
"""

SCRIPT = """\
export CUDA_VISIBLE_DEVICES=0,1
python train.py
"""


def test_a_folder_on_another_stack_is_guarded(tmp_path):
    write(tmp_path, "arcface_paddle/train.py", PADDLE_TRAIN)
    write(tmp_path, "arcface_paddle/utils/convert.py", PADDLE_UTILS)
    write(tmp_path, "arcface_paddle/scripts/train.sh", PADDLE_SH)
    write(tmp_path, "arcface_paddle/scripts/with_torch.sh", TORCH_SH)
    write(tmp_path, "arcface_torch/train.py", TORCH_TRAIN)
    write(tmp_path, "arcface_torch/utils.py", HELPER)
    write(tmp_path, "tools/helper.py", HELPER)
    write(tmp_path, "tools/other.py", HELPER)
    write(tmp_path, "tools/run.sh", SCRIPT)
    rows = guarded_rows(tmp_path, "--no-gitignore")
    paddle = [r for r in rows if r[0].startswith("arcface_paddle/")]
    assert paddle and all(r[4] in ("other-framework",) for r in paddle if not r[0].endswith("with_torch.sh"))
    assert ("arcface_paddle/scripts/train.sh", 1, 37, "TRN610", "other-framework") in paddle
    # a script naming torch is the PyTorch side's, even in that folder
    assert all(r[4] == "" for r in rows if r[0] == "arcface_paddle/scripts/with_torch.sh")
    assert any(r[0] == "arcface_paddle/scripts/with_torch.sh" for r in rows)
    # a folder with a torch import, and one importing no other stack, keep their findings
    others = [r for r in rows if not r[0].startswith("arcface_paddle/")]
    assert {r[0] for r in others} >= {"arcface_torch/train.py", "tools/run.sh"}
    assert all(r[4] != "other-framework" for r in others)
