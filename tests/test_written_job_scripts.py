"""A launcher that writes its job script with echo lines inside a redirected command group (`{` ... `} >
"$SLURM_SCRIPT"`, then `sbatch "$SLURM_SCRIPT"`): each echoed line is a line of that script, read where it is
written (readers/lines.py). cf-dense-contrastive-learning's run_slurm.sh (blind84) echoes `#SBATCH
--gres=gpu:${GPU}` and `export NCCL_P2P_LEVEL=LOC` that way. An echo outside such a group only prints."""
from conftest import scan_findings

GRES = "GPU resource request in a job, container or cluster definition: `--gres=gpu`"

RUN_SLURM = """#!/bin/bash
SLURM_SCRIPT="$LOG_DIR/slurm_command.sh"
echo "submitting with --gres=gpu:${GPU}"
{
echo "#!/bin/bash"
echo "#SBATCH --partition=${PARTITION}"
echo "#SBATCH --gres=gpu:${GPU}"
[ -n "$TIME" ] && echo "#SBATCH --time=${TIME}"
$IS_DISTRIBUTED && echo "export NCCL_P2P_LEVEL=LOC"
echo "python train.py"
} > "$SLURM_SCRIPT"
sbatch "$SLURM_SCRIPT"
"""


def test_echo_lines_of_a_redirected_group_are_the_job_script(tmp_path):
    (tmp_path / "run_slurm.sh").write_text(RUN_SLURM)
    got = [(f[1], f[2], f[3], f[4]) for f in scan_findings(tmp_path)]
    assert got == [
        (7, 15, "TRN610", GRES),
        (9, 33, "TRN277", "NCCL variable set for the job: `NCCL_P2P_LEVEL`"),
    ]


def test_a_group_printed_to_the_terminal_writes_nothing(tmp_path):
    (tmp_path / "usage.sh").write_text(RUN_SLURM.replace('} > "$SLURM_SCRIPT"', "}"))
    assert scan_findings(tmp_path) == []
