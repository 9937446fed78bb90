"""A test module of a sparse-convolution layer whose every test skips without CUDA: the runner imports it for
those tests alone, so its imports of the CUDA operator library cost no test that runs on Neuron."""
import pytest
import torch

from mmcv.ops import SparseConvTensor  # ok: no test of this module runs on Neuron


def test_sparse_block():
    if not torch.cuda.is_available():
        pytest.skip("test requires GPU")
    feats = torch.zeros(4, 3)
    assert SparseConvTensor(feats, feats.int(), [8, 8, 8], 1) is not None


@pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA only")
def test_sparse_block_half():
    assert SparseConvTensor is not None
