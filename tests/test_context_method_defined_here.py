"""method-defined-here: a Python 2 dict method name that the file defines itself is the file's own method."""
from conftest import CONTEXT_FIXTURES, scan_findings


def test_a_method_the_file_defines_is_no_python_2_dict_method():
    # trie.py:10 calls the Trie's own `iterkeys` (fresh58, wenet's compute_hotwords_f1.py); line 14's `.iteritems()`
    # names no method of the file and stays
    assert scan_findings(CONTEXT_FIXTURES / "method_defined_here", "--no-config") == [
        ("trie.py", 14, 20, "TRN324", "Python 2 module (a dict method Python 3 removed): `.iteritems()`", False),
    ]
