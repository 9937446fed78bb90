"""Launchers, containers, notebooks and configs (issue 14): Python run with `python -c`, DeepSpeed as the launcher
and as a config file, GPU requests and CUDA images outside `docker run` lines, and the CUDA-only builds of
Dockerfiles and notebook cells. Every class has a hit that must stay reported and a look-alike that must not be."""
import json

from conftest import FIXTURES, run_cli, scan_findings

BASE = FIXTURES / "launchers_inline"
IMAGE = "CUDA container base image"
GPU = "GPU resource request in a job, container or cluster definition"
KERNEL = "CUDA-only kernel library declared as a dependency"
CUDA_BUILD = "CUDA build of PyTorch (+cuXXX wheel or CUDA wheel index)"
FLASH = "https://github.com/Dao-AILab/flash-attention"


def found(path):
    return [(p, line, col, rule, message) for p, line, col, rule, message, guarded in
            scan_findings(path, "--no-config") if not guarded]


def test_each_class_is_reported_where_it_is_written():
    assert found(BASE / "hit") == [
        # compose device reservation: its NVIDIA driver (the `capabilities: [ gpu ]` line folded into it)
        ("docker-compose.yml", 8, 13, "TRN610", f"{GPU}: `- driver: nvidia`"),
        # deadsnakes' python3.10, run by the image (`| python3.10`, ENTRYPOINT)
        ("docker/Dockerfile", 4, 23, "TRN522", "Python requirement excludes 3.12-3.14: `python3.10 (Python 3.10)`"),
        # flash-attention cloned to be built in place
        ("docker/Dockerfile", 7, 25, "TRN501", f"{KERNEL}: `{FLASH}`"),
        ("docker/Dockerfile", 9, 17, "TRN502", "CUDA-only quantization, inference or training stack declared as a "
                                               "dependency: `tensorrt_llm==0.8.0`"),
        # the nvidia channel's CUDA meta-package
        ("docker/Dockerfile", 10, 49, "TRN505", f"{CUDA_BUILD}: `cuda`"),
        # an image held in a variable for a later `docker run ${IMAGE_NAME}`
        ("docker/run_demo.sh", 2, 12, "TRN603", f"{IMAGE}: `qwenllm/qwen:cu117`"),
        # the nvidia channel itself (rec24b: conda channels of NVIDIA's CUDA packages)
        ("environment.yaml", 3, 5, "TRN505", "conda nvidia channel (NVIDIA's CUDA packages) in the environment: `nvidia`"),
        # a CUDA runtime library (rec27a); the runtime meta-package below it is a place of this finding, one runtime
        # to drop (session 43 folded them; session 57 moved them to TRN510, cuda-library, as their pip wheels are)
        ("environment.yaml", 6, 5, "TRN510",
         "NVIDIA CUDA runtime libraries declared as conda packages (cuda-cudart, libcublas, ...: the CUDA runtime of a "
         "CUDA torch build)"),
        # a DeepSpeed config, once, at its ZeRO section (the micro-batch key comes first in the file)
        ("finetune/ds_config_zero2.json", 6, 6, "TRN287",
         "DeepSpeed config file: `zero_optimization` (read by the DeepSpeed engine)"),
        # Python inline in the script, its output captured for --nproc_per_node
        ("finetune/finetune_ds.sh", 3, 48, "TRN243",
         "torch.cuda device, memory, stream or RNG API: `torch.cuda.device_count`"),
        # the process count taken from that GPU count (advisory: size it by the NeuronCores)
        ("finetune/finetune_ds.sh", 5, 27, "TRN613", "Processes per node sized for the GPUs of a node: `$GPUS_PER_NODE`"),
        # the config path in a variable
        ("finetune/finetune_ds.sh", 7, 17, "TRN287", "DeepSpeed: `deepspeed: finetune/ds_config_zero2.json`"),
        # an NCCL variable set for the command (session 57: advisory, as when Python sets it)
        ("launch/train.sh", 2, 1, "TRN277", "NCCL variable set for the job: `NCCL_DEBUG`"),
        # the deepspeed launcher itself, after a variable assignment
        ("launch/train.sh", 2, 17, "TRN287", "DeepSpeed: `launcher: deepspeed`"),
        # notebook `!` lines: a CUDA-only package, a kernel clone and its build, `python -c` and a launch command's
        # flags
        ("notebooks/finetune.ipynb", 1, 27, "TRN501", f"{KERNEL}: `cpm_kernels==1.0.11`"),
        ("notebooks/finetune.ipynb", 2, 12, "TRN501", f"{KERNEL}: `{FLASH}`"),
        ("notebooks/finetune.ipynb", 3, 24, "TRN501", f"{KERNEL}: `pip install .`"),
        ("notebooks/finetune.ipynb", 4, 27, "TRN241", ".cuda() moves a tensor or module to a GPU: `cuda`"),
        ("notebooks/finetune.ipynb", 3, 17, "TRN287", "DeepSpeed: `deepspeed: ../../finetune/ds_config_zero2.json`"),
        # Python strings a test runs or imports: a container command and CUDA image names
        ("tests/test_serve.py", 6, 31, "TRN610", f"{GPU}: `--gpus all`"),
        ("tests/ut_config.py", 3, 25, "TRN603", f"{IMAGE}: `qwenllm/qwen:cu117`"),
    ]


def test_look_alikes_are_not_reported():
    # `python -c` printing a constant or the CPU count, commented or echoed; a launch without DeepSpeed; a CPU image
    # tag and a path naming cu117; a JSON config without DeepSpeed keys; compose without GPUs; Python strings that
    # are not a command or a CUDA image; deadsnakes' python3.10 installed but never run; a commented clone; a
    # conda package of another kind; a markdown cell
    assert found(BASE / "lookalike") == []


def test_places_folded_into_one_finding():
    proc = run_cli("scan", BASE / "hit", "--format", "json", "--no-cache", "--no-config")
    by = {(f["path"], f["line"], f["rule"]): [(o["line"], o["rule"]) for o in f.get("occurrences", ())]
          for f in json.loads(proc.stdout)["findings"]}
    assert by[("tests/ut_config.py", 3, "TRN603")] == [(4, "TRN603")]  # the second CUDA image constant
    assert by[("docker-compose.yml", 8, "TRN610")] == [(10, "TRN610")]  # one device entry: driver and capability


def test_uncaptured_inline_check_stays_guarded(tmp_path):
    # printed to the terminal, not captured: a check whose answer nothing uses (check-without-placement)
    (tmp_path / "env.sh").write_text("python -c 'import torch; print(torch.cuda.is_available())'\n"
                                     "OK=$(python3 -c \"import torch; print(torch.cuda.is_available())\")\n")
    got = [(line, col, rule, guarded) for _, line, col, rule, _, guarded in scan_findings(tmp_path, "--show-guarded")]
    assert got == [(1, 32, "TRN243", True), (2, 38, "TRN243", False)]


def test_inline_python_positions_and_escapes():
    from trnready.readers.inline_python import _code

    line = 'X=$(python -c "import os; print(\\"a\\")")'
    start = line.index('"') + 1
    code, cols = _code(line, start, '"')
    assert code == 'import os; print("a")'
    assert [line[c] for c in cols] == list(code)  # each character maps back to its place in the shell line
    assert _code("python -c 'unterminated", 11, "'") is None


def test_a_program_on_the_lines_below_is_read_with_an_interpreter_variable(tmp_path):
    # `${PYTHON} -c "` then the program, closed by a line starting with the quote: one finding per rule for the
    # program, at its first line, its other lines as places; a quote inside the program leaves it unread
    (tmp_path / "run.sh").write_text(
        'PYTHON=python3\n'
        '${PYTHON} -c "\n'
        'import torch\n'
        'for i in range(torch.cuda.device_count()):\n'
        '    print(torch.cuda.get_device_name(i))\n'
        '" 2>&1 | tee -a log.txt\n'
        '$PY -c "\n'
        'import torch\n'
        'print(torch.cuda.get_device_name(0), \\"x\\")\n'
        '"\n')
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache")
    got = [(f["line"], f["column"], f["rule"], [(o["line"], o["column"]) for o in f.get("occurrences", ())])
           for f in json.loads(proc.stdout)["findings"]]
    # (5 is the body of a loop over range(torch.cuda.device_count()): no pass runs on Neuron, neuron-guarded)
    assert got == [(4, 16, "TRN243", [])]


def test_an_interpreter_kept_in_a_venv_variable_runs_its_program(tmp_path):
    # mambafold's slurm scripts (blind72): `VENV_PY=.venv/bin/python` then `$VENV_PY -c "..."` under `set -e`:
    # get_device_name(0) raises without CUDA and stops the job; a bare `$COPY -c` is no interpreter
    (tmp_path / "run.sh").write_text(
        'set -e\n'
        'VENV_PY=.venv/bin/python\n'
        '$VENV_PY -c "import torch; print(f\'gpu={torch.cuda.get_device_name(0)}\')"\n'
        '$COPY -c "import torch; print(torch.cuda.get_device_name(0))"\n')
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--no-config")
    got = [(f["line"], f["column"], f["rule"]) for f in json.loads(proc.stdout)["findings"]]
    assert got == [(3, 41, "TRN243")]
