"""Tests of a sparse-convolution layer whose import of the library only decides whether the module runs: without
the package the else arm skips the whole module, so the import never fails where a port has to care. The
project's own use of the library is reported in its source."""
import pytest
import torch

from mypkg.layers import HAS_MINKOWSKI

if HAS_MINKOWSKI:
    from MinkowskiEngine import SparseTensor  # ok: the else arm skips the module
else:
    pytest.skip("needs MinkowskiEngine", allow_module_level=True)


def test_build():
    x = torch.zeros(4, 3)
    assert SparseTensor(x, x.int()) is not None
