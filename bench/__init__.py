"""Benchmarks that print figures (tests never time anything).

    python -m bench speed --corpus PATH
    python -m bench accuracy
    python -m bench html
"""
