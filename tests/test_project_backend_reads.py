"""Report step backend-reads (project/backend_reads.py): the process-group call that reads a backend key a config
sets to nccl is a place (`elsewhere`) of the setting's finding, not a finding of its own."""
import json

from conftest import FIXTURES, run_cli

FIXTURE = FIXTURES / "backend_reads"
NCCL = "Distributed process group on NCCL: "


def _findings():
    proc = run_cli("scan", FIXTURE, "--format", "json", "--no-cache", "--show-guarded", "--exit-zero")
    return {(f["path"], f["line"], f["rule"]): f for f in json.loads(proc.stdout)["findings"]}


def test_yacs_default_is_placed_at_the_call_reading_it():
    f = _findings()[("proj/core/config.py", 5, "TRN271")]
    assert (f["line"], f["column"]) == (5, 19)
    assert [(e["path"], e["line"], e["column"], e["rule"]) for e in f["elsewhere"]] == [
        ("proj/core/distributed.py", 10, 23, "TRN271")]
    assert f["message"] == (NCCL + "`DIST_BACKEND: nccl`; the process group is made from it at "
                            "proj/core/distributed.py:10")


def test_json_config_key_is_placed_at_a_helper_taking_it_by_name():
    # init_distributed(..., dist_backend, ...) gets the config's dist_config section by name; the commented-out
    # call below it is not a place
    f = _findings()[("config.json", 9, "TRN271")]
    assert [(e["path"], e["line"], e["column"]) for e in f["elsewhere"]] == [("proj/core/distributed.py", 15, 23)]
    assert f["message"].endswith("`dist_backend: nccl`; the process group is made from it at "
                                 "proj/core/distributed.py:15")


def test_generic_key_same_file_and_calls_are_not_linked():
    found = _findings()
    # `backend: nccl` is too generic to tie to `args.backend`; the call is no finding either
    assert "elsewhere" not in found[("proj/config/run.yaml", 4, "TRN271")]
    assert not [k for k in found if k[0] == "proj/core/distributed.py" and k[2] == "TRN271"]
    # a key written in the file that calls: the finding is there already, nothing is added
    local = found[("scripts/train_local.py", 10, "TRN271")]
    assert "elsewhere" not in local and "made from it" not in local["message"]


def test_a_call_reading_the_files_own_command_line_option_is_not_linked(tmp_path):
    """`parser.add_argument("--dist_backend", default="gloo")` then `init_process_group(args.dist_backend)`: the
    backend is the option's value, not the JSON config's, so the config's finding gets no place there."""
    from conftest import write
    write(tmp_path, "configs/config.json", '{\n  "dist_config": {\n    "dist_backend": "nccl"\n  }\n}\n')
    write(tmp_path, "train.py", '''
        import argparse
        import torch
        parser = argparse.ArgumentParser()
        parser.add_argument("--dist_backend", default="gloo")
        args = parser.parse_args()
        torch.distributed.init_process_group(args.dist_backend)
        ''')
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--exit-zero")
    got = [(f["path"], f["line"], f["rule"], f["message"], f.get("elsewhere", []))
           for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN271"]
    assert got == [("configs/config.json", 3, "TRN271", NCCL + "`dist_backend: nccl`", [])]
