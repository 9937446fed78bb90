import pytest
import torch

skipifnocuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA")
