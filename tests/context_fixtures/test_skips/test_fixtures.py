import pytest
import torch


def _require_cuda_and_kernels():
    if not torch.cuda.is_available():
        pytest.skip("CUDA is required")
    pytest.importorskip("triton")


@pytest.fixture(scope="module")
def kernels():
    _require_cuda_and_kernels()
    return object()


@pytest.fixture(name="fused")
def fused_kernels(kernels):
    return kernels


@pytest.fixture
def cpu_data():
    return torch.ones(2)


def test_uses_kernels(kernels):
    torch.cuda.synchronize()


def test_uses_fused(fused):
    torch.cuda.synchronize()


@pytest.mark.usefixtures("kernels")
def test_uses_fixture_by_marker():
    torch.cuda.synchronize()


def test_calls_skip_helper():
    _require_cuda_and_kernels()
    torch.cuda.synchronize()


def test_importorskip_triton():
    pytest.importorskip("triton")
    torch.cuda.synchronize()


class TestAutouse:
    @pytest.fixture(autouse=True)
    def _needs_cuda(self):
        _require_cuda_and_kernels()

    def test_it(self):
        torch.cuda.synchronize()


# Look-alikes
def test_uses_cpu_data(cpu_data):
    torch.cuda.synchronize()


def test_importorskip_numpy():
    pytest.importorskip("numpy")
    torch.cuda.synchronize()


@pytest.mark.parametrize("kernels", [None])
def test_parametrized_over_the_fixture(kernels):
    torch.cuda.synchronize()
