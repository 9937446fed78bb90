"""trnready: a static readiness scanner for PyTorch code moving to TorchNeuron (Trainium).

The names in __all__ are the stable Python interface (docs/api.md); everything else is internal.
"""
from .version import __version__

from .api import scan
from .catalogue import CatalogueError
from .config import Config, ConfigError, SelectorError
from .model import CONFIDENCES, SEVERITIES, Diagnostic, Finding, Report, Rule

__all__ = ["scan", "Config", "Report", "Finding", "Diagnostic", "Rule", "ConfigError", "SelectorError",
           "CatalogueError", "SEVERITIES", "CONFIDENCES", "__version__"]
