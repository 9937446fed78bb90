import pytest
import torch
from torchao.utils import is_MI300, is_sm_at_least_89

if not (is_sm_at_least_89() or is_MI300()):
    pytest.skip("needs an FP8-capable GPU", allow_module_level=True)


def test_fp8():
    torch.cuda.synchronize()
