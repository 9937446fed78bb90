"""A module-level `try` whose ImportError handler skips the module: the import is the module's skip condition."""
import pytest

try:
    import torchsparse  # ok: the handler skips the module
except ImportError:
    pytest.skip("needs torchsparse", allow_module_level=True)


def test_version():
    assert torchsparse.__version__
