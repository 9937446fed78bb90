"""What `echo` / `printf` print is text, on every line of a script (readers/lines.py `quiet_echo`): help text
(`echo "  -g|--gpus <1> - number of gpus"`, whose `|` is inside the string) and hints are not launch settings,
while a real command on the next line, or output redirected into a file, still is."""
from conftest import scan_findings, write

RUN_SH = """\
#!/bin/bash
usage() {
    echo "Usage: $0 [options]"
    echo "  -g|--gpus <1> - number of gpus to be used"
    echo "  example: python train.py --fp16 --gpus 4"
    printf 'set CUDA_VISIBLE_DEVICES=%s to pick GPUs\\n' "$GPU"
}
echo "export CUDA_VISIBLE_DEVICES=0" >> ~/.bashrc
sbatch --gpus 4 job.sh
echo "CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-unset}" | tee -a "$LIVE_LOG"
echo "CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES" >> logs/train.log
"""


def test_printed_text_is_no_command_on_any_line(tmp_path):
    # (lines 10 and 11 append to a log: printed all the same, SEMambapp's slurm_train.sh, fresh84)
    write(tmp_path, "run.sh", RUN_SH)
    got = [(f[1], f[2], f[3]) for f in scan_findings(tmp_path) if f[0] == "run.sh"]
    assert got == [(8, 14, "TRN605"), (9, 8, "TRN610")]


DOCKER_SH = """\
#!/bin/bash
# 1. Run the following command to enter the docker
: '
  docker run --gpus=all --rm -it --ipc=host pytorch/pytorch:1.11.0-cuda11.3-cudnn8-devel
'
: <<'USAGE'
CUDA_VISIBLE_DEVICES=0 python train.py --fp16
USAGE
: 'a one-line note'
docker run --gpus all --rm img
"""


def test_colon_block_comments_are_text(tmp_path):
    # `: '...'` and `: <<'TAG'` hand a multi-line string to the no-op command `:` (ocnn's docker.sh usage block);
    # the command after them is read
    write(tmp_path, "docker.sh", DOCKER_SH)
    got = [(f[1], f[2], f[3]) for f in scan_findings(tmp_path) if f[0] == "docker.sh"]
    assert got == [(10, 12, "TRN610")]
