from unittest.mock import Mock

from proj.amp import MixedPrecision


def test_mocked_optimizer_step():
    precision = MixedPrecision("16-mixed", device="cuda")
    precision.scaler = Mock()
    assert precision.scaler is not None


def test_real_scaler():
    precision = MixedPrecision("16-mixed", device="cuda")
    assert precision.scaler.is_enabled()
