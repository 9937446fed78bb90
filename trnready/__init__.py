"""trnready: a static readiness scanner for PyTorch code moving to TorchNeuron (Trainium)."""
from .version import __version__

from .api import scan  # noqa: E402
from .config import Config  # noqa: E402
from .model import Diagnostic, Finding, Report  # noqa: E402

__all__ = ["scan", "Config", "Report", "Finding", "Diagnostic", "__version__"]
