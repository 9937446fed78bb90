"""Moved to trnready/readers/python.py; this name stays until the `fix` package split is merged."""
from .readers.python import _column, findings_from_hits, hits_for_tree, parse, scan_python  # noqa: F401
