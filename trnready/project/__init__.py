"""Project-wide analysis: per-file summaries (summary.py) linked across modules (link.py)."""
