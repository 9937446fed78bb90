"""A flag of a shell command that reads a variable (`--gpus=${n_gpus_per_node}`) has the script's assignments of it
(`n_gpus_per_node=4`) as places of its finding: the value to change is written there (readers/lines.py). And a
`with-setting` condition on launch flags looks at the flags of the same command only (readers/configs.py)."""
import json

from conftest import run_cli
from trnready.readers.lines import shell_variable_lines


def scan(tmp_path, text):
    (tmp_path / "run.sh").write_text(text)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--no-config", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["line"], f["rule"], [o["line"] for o in f.get("occurrences", ())])
            for f in json.loads(proc.stdout)["findings"]]


def test_the_assignment_a_gpu_flag_reads_is_a_place_of_its_finding(tmp_path):
    script = ("N_NODES=2\nexport GPUS=${GPUS:-8}\n# GPUS=16\nsrun --nodes=$N_NODES --gpus-per-node=$GPUS python train.py\n"
              "echo --gpus-per-node=$GPUS\n")
    assert scan(tmp_path, script) == [(4, "TRN610", [2])]


def test_a_flag_reading_an_unassigned_variable_has_no_other_place(tmp_path):
    assert scan(tmp_path, "srun --gpus-per-node=$1 python train.py\n") == [(1, "TRN610", [])]


def test_shell_variable_lines():
    lines = ["a=1", "export B=\"x y\"", "  local c=$(nproc)", "# d=4", "if [ $a == 1 ]; then", "readonly E=2",
             "declare -i F=3", "x==1"]
    assert shell_variable_lines(lines) == {"a": [(1, 1)], "B": [(2, 8)], "c": [(3, 9)], "E": [(6, 10)],
                                           "F": [(7, 12)]}


def test_with_setting_looks_at_the_same_command(tmp_path):
    script = ('python train.py --accelerator="ddp" --max_epochs=3 \\\n    --benchmark=True\n'
              "python tools/speed.py --benchmark\n")
    assert scan(tmp_path, script) == [(2, "TRN261", [])]
