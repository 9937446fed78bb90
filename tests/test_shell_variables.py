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


def test_a_gres_value_reading_a_reported_count_is_a_place_of_the_count(tmp_path):
    # `--gres=gpu:${NUM_GPUS_PER_NODE}` asks for what `NUM_GPUS_PER_NODE="2"` sets, and that line is a finding of
    # its own (a GPU-count variable): one finding, at the value, the flag a place of it
    script = ('NUM_GPUS_PER_NODE="2"  # max is 8 for a100\nSBATCH_CMD="sbatch \\\n    --nodes=1 \\\n'
              '    --gres=gpu:${NUM_GPUS_PER_NODE} \\\n    job.slurm"\n')
    assert scan(tmp_path, script) == [(1, "TRN610", [4])]


def test_a_gres_value_reading_an_unreported_variable_keeps_its_finding(tmp_path):
    # GRES_GPUS is named for no GPU count: nothing reports its assignment, so the flag keeps the finding, with the
    # assignment as its place
    script = "GRES_GPUS=4\nsbatch --gres=gpu:$GRES_GPUS job.slurm\nsbatch --gres=gpu:8 other.slurm\n"
    assert scan(tmp_path, script) == [(2, "TRN610", [1]), (3, "TRN610", [])]


def test_hf_tf32_argument_is_a_required_change(tmp_path):
    # TrainingArguments raises ValueError for tf32=True without a CUDA GPU: TRN265, a change
    (tmp_path / "cfg.yaml").write_text("base_model: m\nbf16: true\ntf32: true\n")
    (tmp_path / "train.sh").write_text("torchrun train.py \\\n    --bf16 True \\\n    --tf32 True\n"
                                       "torchrun train.py --tf32 False\n")
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--no-config", cwd=tmp_path)
    assert sorted((f["path"], f["line"], f["rule"], f["severity"]) for f in json.loads(proc.stdout)["findings"]) == [
        ("cfg.yaml", 3, "TRN265", "change"), ("train.sh", 3, "TRN265", "change")]


def test_a_flag_value_that_is_a_variable_set_to_a_literal_is_that_literal(tmp_path):
    # `--ddp.dist_backend $backend` after `backend="nccl"`: NCCL, with the assignment (the line to change) as a
    # place of the finding; a value computed by a command, or a variable assigned only after the command, says
    # nothing
    script = ('backend="nccl"\nworkers=$(nproc)\n'
              "python train.py --ddp.dist_backend $backend --num_workers $workers\n"
              "late=nccl\npython eval.py --dist_backend ${late2}\nlate2=nccl\n")
    assert scan(tmp_path, script) == [(3, "TRN271", [1])]


def test_a_resolved_flag_a_line_matcher_reports_stays_on_the_flag_line(tmp_path):
    assert scan(tmp_path, "ngpu=4\nsrun --gpus-per-node $ngpu python train.py\n") == [(2, "TRN610", [1])]


# ---- a variable set once to a literal, read by a line a matcher judges (readers/lines.py `_match_expanded`)

def test_a_count_set_once_and_passed_to_nproc_per_node_is_the_count(tmp_path):
    # `--nproc_per_node $WORKERS` says what `--nproc_per_node 4` says once WORKERS=4 is put in: reported on the
    # flag's line, at the variable, with the assignment (the value to change) as its place
    script = "#!/bin/bash\nWORKERS=4\nNNODES=1\ntorchrun \\\n  --nproc_per_node $WORKERS \\\n  --nnodes ${NNODES} fit.py\n"
    (tmp_path / "run.sh").write_text(script)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--no-config", cwd=tmp_path)
    found = json.loads(proc.stdout)["findings"]
    assert [(f["line"], f["column"], f["rule"], [o["line"] for o in f.get("occurrences", ())]) for f in found] \
        == [(5, 20, "TRN613", [2])]
    assert "`$WORKERS = 4`" in found[0]["message"]


def test_a_variable_not_set_once_to_a_literal_is_not_put_in(tmp_path):
    # set twice, set from a command, set after the read, or a Trainium-sized count: nothing to report
    script = ("A=4\nA=32\ntorchrun --nproc_per_node $A x.py\nB=$(nproc)\ntorchrun --nproc_per_node $B x.py\n"
              "torchrun --nproc_per_node $C x.py\nC=4\nD=32\ntorchrun --nproc_per_node=${D} x.py\n")
    assert scan(tmp_path, script) == []


def test_a_value_put_in_whose_assignment_is_reported_folds_into_it(tmp_path):
    # GPUS_PER_NODE=8 is a GPU count by its name (TRN610); `--num_gpus $GPUS_PER_NODE` is the same request, so one
    # finding: since session 28 the flag matches TRN610 as written (a GPU-count option handed a shell variable), and
    # as with `--gpus $GPUS` the flag keeps the finding with the assignment, where the value is written, as its place
    script = "GPUS_PER_NODE=8\ndeepspeed --num_gpus $GPUS_PER_NODE train.py\n"
    assert [f for f in scan(tmp_path, script) if f[1] == "TRN610"] == [(2, "TRN610", [1])]


def test_one_gpu_request_per_command_and_per_directive_block(tmp_path):
    import json

    from conftest import run_cli

    (tmp_path / "job.sh").write_text("#!/bin/bash\n#SBATCH --gres=gpu:4\n#SBATCH --constraint=a100\n#SBATCH --time=1:00\n\n"
                                     "sbatch --gres=gpu:1 \\\n    --constraint gpu80 \\\n    run.sh\n"
                                     "srun --gres=gpu:2 python train.py\n")
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--no-config", cwd=tmp_path)
    got = [(f["line"], f["column"], f["rule"], [o["line"] for o in f.get("occurrences", ())])
           for f in json.loads(proc.stdout)["findings"]]
    # the directive block (lines 2-3) and the continued sbatch command (lines 6-7) are one request each; the srun
    # on line 9 is another command
    assert got == [(2, 9, "TRN610", [3]), (6, 8, "TRN610", [7]), (9, 6, "TRN610", [])]
