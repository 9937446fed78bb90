"""off-step (trnready/project/step_reach.py): data-dependent shapes in code no training or model step calls."""
import json

from conftest import FIXTURES, run_cli

MASK = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"
OP = "Operation whose output shape depends on the data: `torch.nonzero`"


def test_only_code_every_caller_path_of_which_misses_a_step_is_guarded():
    # filter_points <- refine <- Runner.run <- demo.py's module code: no step on the way (guarded). select is called
    # by Net.forward, prepare by run_epoch (it calls backward): kept. hooked is handed over as a value (CALLBACKS),
    # from_config is named by config.yaml: either may run from anywhere, kept.
    proc = run_cli("scan", FIXTURES / "off_step", "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["column"], f["rule"], f.get("guarded_by"), f["message"])
           for f in json.loads(proc.stdout)["findings"]]
    assert got == [
        ("geo/solve.py", 6, 12, "TRN104", "off-step", MASK),
        ("geo/solve.py", 14, 12, "TRN104", None, OP),
        ("geo/solve.py", 18, 12, "TRN104", None, OP),
        ("model.py", 8, 12, "TRN104", None, MASK),
        ("train.py", 5, 12, "TRN104", None, MASK),
    ]


def test_a_search_past_its_depth_keeps_the_finding(tmp_path):
    # a chain of callers longer than step-reach-depth (8) is undecided: the finding stays
    chain = ["import torch\n\n\ndef f0(x):\n    return x[x > 0]\n"]
    for i in range(1, 11):
        chain.append(f"\n\ndef f{i}(x):\n    return f{i - 1}(x)\n")
    (tmp_path / "deep.py").write_text("".join(chain))
    (tmp_path / "main.py").write_text("from deep import f10\n\nprint(f10(1))\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    got = [(f["path"], f["line"], f.get("guarded_by")) for f in json.loads(proc.stdout)["findings"]]
    assert got == [("deep.py", 5, None)]
    (tmp_path / "main.py").write_text("from deep import f5\n\nprint(f5(1))\n")
    (tmp_path / "deep.py").write_text("".join(chain[:6]))
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    got = [(f["path"], f["line"], f.get("guarded_by")) for f in json.loads(proc.stdout)["findings"]]
    assert got == [("deep.py", 5, "off-step")]


def test_tab_indented_code_is_read_by_its_blocks(tmp_path):
    # scopes come from the indentation of `def` / `class` lines: tabs count as their expanded width
    (tmp_path / "geo.py").write_text("import torch\n\n\nclass Runner:\n\tdef run(self, x):\n\t\treturn pick(x)\n\n\n"
                                     "def pick(x):\n\treturn x[x > 0]\n")
    (tmp_path / "demo.py").write_text("from geo import Runner\n\nprint(Runner().run(1))\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    got = [(f["path"], f["line"], f.get("guarded_by")) for f in json.loads(proc.stdout)["findings"]]
    assert got == [("geo.py", 10, "off-step")]
