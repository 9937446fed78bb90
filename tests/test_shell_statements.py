"""Shell scripts: one finding per rule per command (lines joined by a trailing backslash, a quoted value running
over them), and unread-shell-variable (a plain assignment of an executed script that nothing reads)."""
import json

from conftest import FIXTURES, run_cli

HERE = FIXTURES / "shell_statements"
ARCH = "C++/CUDA extension (CUDAExtension, load / load_inline with CUDA sources): `{}`"
TOOLKIT = "CUDA toolkit chosen by the environment: `{}`"


def _scan(*args):
    proc = run_cli("scan", HERE, "--format", "json", "--no-cache", *args)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["column"], f["rule"], f["message"], f.get("guarded_by"),
             [(o["line"], o["column"]) for o in f.get("occurrences", [])]) for f in json.loads(proc.stdout)["findings"]]


def test_one_finding_per_rule_per_command_its_other_lines_are_places():
    got = [f for f in _scan() if f[0] == "make.sh"]
    assert got == [
        ("make.sh", 3, 8, "TRN611", TOOLKIT.format("CUDA_PATH"), None, []),
        # the six-line CUDA_ARCH value is one statement: one finding, its other `-gencode` lines are places
        ("make.sh", 5, 12, "TRN302", ARCH.format("-gencode"), None, [(6, 12), (7, 12)]),
        # nvcc run on a .cu source by the script (session 37): the build of the kernel the arch list is for
        ("make.sh", 9, 1, "TRN302", "CUDA sources compiled with nvcc by this script: `nvcc`", None, []),
        # a hit of the same rule in another command stays its own finding
        ("make.sh", 10, 1, "TRN302", ARCH.format("TORCH_CUDA_ARCH_LIST"), None, []),
    ]


def test_unread_plain_assignment_of_an_executed_script_is_guarded():
    got = {(f[0], f[1]): f[5] for f in _scan("--show-guarded") if f[3] == "TRN611"}
    assert got == {
        ("make.sh", 3): None,  # exported: nvcc and pip see it
        ("ops/make.sh", 3): "unread-shell-variable",  # never exported, never read
        ("ops/make.sh", 4): None,  # read by the script ($CUDA_HOME)
        ("env/cuda_env.sh", 1): None,  # no `#!`: a file meant to be sourced sets it for the shell that sources it
        ("env/build.sh", 2): None,  # sources another script, which runs in this shell and may read it
        # an image: a RUN step that only exports dies with its shell; an export before a command in the same step,
        # and ENV, set it for what runs
        ("docker/Dockerfile", 2): "unread-shell-variable",
        ("docker/Dockerfile", 3): None,
        ("docker/Dockerfile", 4): None,
    }


def test_guarded_unread_assignment_is_not_on_the_default_report():
    assert ("ops/make.sh", 3) not in {(f[0], f[1]) for f in _scan()}
