"""neuron-guarded, a test module's leftover entry point: `def main():` that nothing in the file names (its
`__main__` block runs the tests instead) runs for nobody, with the helpers only it calls. A test module whose
`__main__` calls main(), and a module that is not a test module, stay reported."""
import json

from conftest import CONTEXT_FIXTURES, run_cli

NCCL = "Distributed process group on NCCL: `torch.distributed.init_process_group`"
SET = "torch.cuda device, memory, stream or RNG API: `torch.cuda.set_device`"


def test_an_uncalled_main_of_a_test_module_is_guarded_with_its_helpers():
    proc = run_cli("scan", CONTEXT_FIXTURES / "uncalled_main", "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["column"], f["rule"], f["message"], f.get("guarded_by"))
           for f in json.loads(proc.stdout)["findings"]]
    assert got == [
        ("run_dist.py", 5, 5, "TRN271", NCCL, None),  # not a test module: another module may call it
        ("run_dist.py", 6, 5, "TRN243", SET, None),
        ("test_dist_leftover.py", 6, 5, "TRN271", NCCL, "neuron-guarded"),  # make_group: called only by main
        ("test_dist_leftover.py", 11, 5, "TRN243", SET, "neuron-guarded"),
        ("test_dist_script.py", 5, 5, "TRN271", NCCL, None),  # __main__ calls main(): a script that runs
        ("test_dist_script.py", 6, 5, "TRN243", SET, None),
    ]
