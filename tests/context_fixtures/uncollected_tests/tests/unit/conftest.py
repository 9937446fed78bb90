collect_ignore = ["test_dropped.py"]
