"""Benchmarks that print figures (tests never time anything).

    python -m trnready.bench speed --corpus PATH
    python -m trnready.bench accuracy
    python -m trnready.bench html
"""
