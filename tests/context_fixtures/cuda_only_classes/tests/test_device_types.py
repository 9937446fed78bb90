import torch
from torch.testing._internal import common_utils
from torch.testing._internal.common_device_type import instantiate_device_type_tests


def _prep(shape):
    return torch.randn(shape).cuda()


autocast_dtypes = (torch.half, torch.bfloat16) if torch.cuda.is_bf16_supported() else (torch.half,)
shared_dtypes = (torch.half, torch.bfloat16) if torch.cuda.is_bf16_supported() else (torch.half,)


class TestNorm(common_utils.TestCase):
    @common_utils.parametrize("dtype", autocast_dtypes + shared_dtypes)
    def test_norm(self, device, dtype):
        _prep((2, 3))
        torch.cuda.synchronize()


class TestAnyDevice(common_utils.TestCase):
    @common_utils.parametrize("dtype", shared_dtypes)
    def test_other(self, device, dtype):
        torch.cuda.synchronize()


class TestTwice(common_utils.TestCase):
    def test_twice(self, device):
        torch.cuda.synchronize()


class TestBase(common_utils.TestCase):
    def test_base(self, device):
        torch.cuda.synchronize()


class TestDerived(TestBase):
    pass


instantiate_device_type_tests(TestNorm, globals(), only_for=("cuda",))
instantiate_device_type_tests(TestAnyDevice, globals(), only_for=("cpu", "cuda"))
instantiate_device_type_tests(TestTwice, globals(), only_for=("cuda",))
instantiate_device_type_tests(TestTwice, globals(), only_for="cpu")
instantiate_device_type_tests(TestBase, globals(), only_for="cuda")
instantiate_device_type_tests(TestDerived, globals())
