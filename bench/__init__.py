"""Benchmarks that print figures (tests never time anything). Not part of the installed package:
run them from a checkout, at the repository root.

    python -m bench speed --corpus PATH      (or: python bench/speed.py --corpus PATH)
    python -m bench ab --base DIR --head DIR --corpus PATH   (two source trees, interleaved)
    python -m bench accuracy
    python -m bench surface
    python -m bench html
"""
