"""unreachable-statement: what follows a raise, return, break or continue in its block, or a call of the
interpreter's exits the file cannot have rebound (`sys.exit()` through its import, `quit()`), is guarded; the
statements before it, other blocks and code after any other call stay."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_statements_after_leaving_their_block_are_guarded():
    got = [(p, line, col, rule, guarded) for p, line, col, rule, _, guarded in
           scan_findings(CONTEXT_FIXTURES / "unreachable_statement", "--show-guarded")]
    assert got == [
        ("proj/bench.py", 7, 9, "TRN241", False),  # before `quit()`
        ("proj/bench.py", 9, 5, "TRN243", True),  # after `quit()`
        ("proj/bench.py", 16, 9, "TRN243", True),  # after `sys.exit(...)`, `sys` imported by the file
        ("proj/bench.py", 17, 12, "TRN241", False),  # the `if` arm exits; the function goes on
        ("proj/bench.py", 26, 12, "TRN241", False),  # the file binds `exit` itself
        ("proj/generate.py", 7, 9, "TRN261", True),  # after `raise NotImplementedError` in the `if compile:` arm
        ("proj/generate.py", 8, 17, "TRN112", True),
        ("proj/generate.py", 8, 17, "TRN701", True),
        ("proj/generate.py", 9, 12, "TRN241", False),  # the function's own return: after the `if`, reachable
        ("proj/generate.py", 16, 13, "TRN243", True),  # after `continue`
        ("proj/generate.py", 17, 9, "TRN243", False),  # the loop's next statement
        ("proj/generate.py", 19, 29, "TRN242", False),
        ("proj/generate.py", 22, 9, "TRN243", True),  # after a bare `raise` in the handler
        ("proj/generate.py", 24, 9, "TRN243", False),  # `finally` runs whatever the handler does
        ("proj/generate.py", 29, 25, "TRN242", False),  # `sys` is a parameter here: any object
    ]


def test_registered_as_a_guard():
    assert context.get("unreachable-statement").effect == "guard"


def test_a_literal_division_by_zero_stops_the_script(tmp_path):
    # Pytorch_Quantize_impls (blind80): `optimize.py`, `compress.py` and `compress.1.py` stop themselves near the top
    # with a bare `1/0`; their `"cuda:{}".format(...)` lines below never run. A division by a name is no stop.
    (tmp_path / "optimize.py").write_text("import torch\n1/0\ndevice = torch.device('cuda:0')\n")
    (tmp_path / "scale.py").write_text("import torch\nzero = 0\n1 / zero\ndevice = torch.device('cuda:0')\n")
    found = scan_findings(tmp_path, "--show-guarded", "--select", "TRN242")
    assert [(f[0], f[1], f[5]) for f in found] == [("optimize.py", 3, True), ("scale.py", 4, False)]
