import sys
from unittest import mock

from proj.trainer import start


def test_start_uses_the_device():
    hw = mock.MagicMock()
    hw.DEVICE = "cuda"
    with mock.patch.dict(sys.modules, {"proj.hardware": hw}):
        assert start(device="cuda") == "cuda"
