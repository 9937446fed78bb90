"""GPU requests written in forms the launcher and config matchers did not read (session 28, recall):

- a launch option pinning the run to a GPU id (`--gpu_id 0`, beside the `--gpu_ids 0,1` already read), TRN610;
- a GPU-count option of a launcher handed a shell variable (`deepspeed --num_gpus $gpus`), TRN610;
- a training config switching the GPU on in a `gpu` section (`"gpu": {"use": true, "id": 0}`), TRN610;
- a CI matrix entry's `container:` naming a CUDA image (`mosaicml/pytorch:2.7.0_cu128-...`), TRN603.

Each case runs the real CLI on files written for it and pins path, line, column, rule and message; each has
look-alikes next to its hits that must stay unreported.
"""
import json

from conftest import run_cli, write


def found(root, rules=("TRN603", "TRN610"), occurrences=False):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--exit-zero")
    assert proc.returncode == 0, proc.stderr
    out = [(f["path"], f["line"], f["column"], f["rule"], f["message"])
           + (([o["line"] for o in f.get("occurrences") or ()],) if occurrences else ())
           for f in json.loads(proc.stdout)["findings"] if f["rule"] in rules]
    return sorted(out)


def test_launch_option_pinning_gpu_ids(tmp_path):
    write(tmp_path, "scripts/run_all.sh", """
        code=main_SBMs_node_classification.py
        python $code --dataset PATTERN --gpu_id 0 --seed 41 &
        python $code --dataset PATTERN --gpu_ids=0,1 --seed 42 &
        python $code --dataset ZINC --gpu_id 0 --seed 41 &
        python test.py --gpu-ids 2 --name faces
        python test.py --gpu_ids -1 --name cpu_run
        python test.py --gpu_id $GPU --name any
        # python $code --gpu_id 3
        echo "pass --gpu_id 0 to pin a GPU"
        python train.py --gpu_type mps --gpu 0
        """)
    # launch commands are read as settings: one finding per script for the option (as for a config file), each
    # launch line pinning GPU ids a place of it; `-1` (CPU mode), a variable and a comment or echo are not
    assert found(tmp_path, occurrences=True) == [
        ("scripts/run_all.sh", 2, 41, "TRN610",
         "GPU resource request in a job, container or cluster definition: `gpu_id: 0`", [3, 4, 5]),
    ]


def test_gpu_count_option_from_a_shell_variable(tmp_path):
    write(tmp_path, "tests/model/ds_gpt2_test.sh", """
        gpus=8
        run_cmd="deepspeed --num_nodes $nodes --num_gpus $gpus pretrain_gpt2.py"
        run_cmd2="deepspeed.pt \\\\
              --num_gpus ${num_gpus} \\\\
              --master_port ${master_port}"
        python run.py --num_gpus ${NUM_GPUS:-0}
        python run.py --num_gpus_per_node=$GPN
        # deepspeed --num_gpus $gpus x.py
        echo "--num_gpus $gpus"
        deepspeed --num_gpus $gpus eval.py
        """)
    said = "GPU count a launcher option reads from a shell variable: "
    # reported at the variable: every launch line reading it is one finding (line 10 a place of line 2's), with the
    # variable's assignment (`gpus=8`, reported by itself as a GPU count) as a place too
    assert found(tmp_path, occurrences=True) == [
        ("tests/model/ds_gpt2_test.sh", 2, 50, "TRN610", said + "`$gpus`", [1, 10]),
        ("tests/model/ds_gpt2_test.sh", 4, 18, "TRN610", said + "`${num_gpus}`", []),
        ("tests/model/ds_gpt2_test.sh", 7, 35, "TRN610", said + "`$GPN`", []),
    ]


def test_training_config_switching_the_gpu_on(tmp_path):
    write(tmp_path, "configs/SBMs_GatedGCN_PATTERN.json", """
        {
            "gpu": {
                "use": true,
                "id": 0
            },
            "model": "GatedGCN",
            "params": {"seed": 41, "epochs": 1000}
        }
        """)
    write(tmp_path, "configs/cpu_run.json", """
        {
            "gpu": {"use": false, "id": 0},
            "model": "MLP",
            "params": {"seed": 41, "epochs": 1000}
        }
        """)
    assert found(tmp_path) == [
        ("configs/SBMs_GatedGCN_PATTERN.json", 3, 16, "TRN610",
         "GPU switched on by a training config: `gpu.use: true`"),
    ]


def test_ci_matrix_container_naming_a_cuda_image(tmp_path):
    write(tmp_path, ".github/workflows/pr-gpu.yaml", """
        jobs:
          pytest-gpu:
            runs-on: ubuntu-latest
            strategy:
              matrix:
                include:
                - name: "python3.12-pytorch2.7.0"
                  container: mosaicml/pytorch:2.7.0_cu128-python3.12-ubuntu22.04
                - name: "cpu"
                  container: mosaicml/pytorch:2.7.0_cpu-python3.12-ubuntu22.04
            steps:
            - uses: org/ci-testing/.github/actions/pytest@v1
              with:
                container: ${{ matrix.container }}
          test-cuda:
            runs-on: ubuntu-latest
            container: nvidia/cuda:12.4.1-devel-ubuntu22.04
            steps:
            - run: make test
        """)
    assert found(tmp_path) == [
        (".github/workflows/pr-gpu.yaml", 8, 22, "TRN603",
         "CUDA container base image: `mosaicml/pytorch:2.7.0_cu128-python3.12-ubuntu22.04`"),
        (".github/workflows/pr-gpu.yaml", 17, 16, "TRN603",
         "CUDA container base image: `nvidia/cuda:12.4.1-devel-ubuntu22.04`"),
    ]
