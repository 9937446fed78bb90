"""extension-never-called: an import named like a compiled extension that the file never calls into stays silent."""
from conftest import CONTEXT_FIXTURES, scan_findings


def test_only_extensions_the_file_calls_into_are_reported():
    # losses.py:2 imports focal_cpp and never calls it (the file's focal loss is plain PyTorch); swish_cpp (as sw)
    # and lsr_cpp's function are called
    assert scan_findings(CONTEXT_FIXTURES / "extension_never_called", "--no-config", "--select", "TRN305") == [
        ("losses.py", 3, 1, "TRN305", "Compiled extension imported but not built in this repository: `swish_cpp`",
         False),
        ("losses.py", 4, 1, "TRN305", "Compiled extension imported but not built in this repository: `lsr_cpp`",
         False),
    ]
