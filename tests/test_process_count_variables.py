"""Reader lines: a GPU-count variable a launcher reads only as its process count is a place of that finding."""
import json

from conftest import run_cli


def _findings(path):
    proc = run_cli("scan", path, "--format", "json", "--no-cache", "--exit-zero")
    assert proc.returncode == 0, proc.stderr
    return [(f["line"], f["column"], f["rule"], [(o["line"], o["column"], o["rule"]) for o in f.get("occurrences", ())])
            for f in json.loads(proc.stdout)["findings"]]


def test_a_count_read_only_as_the_process_count_is_no_resource_request(tmp_path):
    script = tmp_path / "launch.sh"
    script.write_text("#!/usr/bin/env bash\nexport MASTER_PORT=1081\nexport GPUS_PER_NODE=8\n\n"
                      "python3 -m torch.distributed.launch --nproc_per_node=${GPUS_PER_NODE} "
                      "--master_port=${MASTER_PORT} train.py \\\n    --fp32\n")
    assert _findings(script) == [(5, 54, "TRN613", [(3, 8, "TRN613")])]


def test_a_count_the_scheduler_also_reads_keeps_its_request(tmp_path):
    script = tmp_path / "slurm.sh"
    script.write_text("#!/usr/bin/env bash\nGPUS_PER_NODE=8\nsrun --gres=gpu:${GPUS_PER_NODE} --ntasks-per-node=1 \\\n"
                      "    torchrun --nproc_per_node=${GPUS_PER_NODE} train.py\n")
    assert _findings(script) == [(2, 1, "TRN610", [(3, 6, "TRN610")]), (4, 31, "TRN613", [(2, 1, "TRN613")])]


def test_a_count_read_anywhere_else_keeps_its_finding(tmp_path):
    script = tmp_path / "echo.sh"
    script.write_text("#!/usr/bin/env bash\nGPUS_PER_NODE=8\necho \"using $GPUS_PER_NODE gpus\"\n"
                      "torchrun --nproc_per_node=$GPUS_PER_NODE train.py\n")
    assert _findings(script) == [(2, 1, "TRN610", []), (4, 27, "TRN613", [(2, 1, "TRN613")])]
