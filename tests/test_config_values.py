"""Config values that select CUDA-only code, fp16 trainer settings, GPU CI jobs and install checks.

Each case runs the real CLI on files written for it and pins path, line, column, rule, confidence and message;
each has look-alikes that must stay unreported next to its hits.
"""
import json

import pytest

from conftest import run_cli, write


def scan(root, *extra):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--exit-zero", *extra)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def found(root, *extra, occurrences=False):
    out = []
    for f in scan(root, *extra)["findings"]:
        out.append((f["path"], f["line"], f["column"], f["rule"], f["confidence"], f["message"].split(": ", 1)[1]))
        if occurrences:
            out += [(f["path"], o["line"], "occurrence", o.get("rule", f["rule"])) for o in f.get("occurrences") or []]
    return sorted(out, key=lambda t: (t[0], t[1]))


# ---------------------------------------------------------------- values naming a CUDA-only package


def test_implementation_keys_naming_a_cuda_only_package(tmp_path):
    write(tmp_path, "configs/autoencoder.yaml", """
        model:
          target: project.models.AutoencoderKL
          params:
            attn_type: vanilla-xformers
            double_z: true
        """)
    write(tmp_path, "config/solver/lm.yaml", """
        solver: lm
        optim:
          lr: 1e-4
        efficient_attention_backend: xformers
        """)
    write(tmp_path, "configs/unet.yaml", """
        model:
          params:
            spatial_transformer_attn_type: softmax-flash_attn
            amp_backend: apex
        """)
    assert found(tmp_path) == [
        ("config/solver/lm.yaml", 4, 30, "TRN284", "medium", "`efficient_attention_backend: xformers`"),
        ("configs/autoencoder.yaml", 4, 16, "TRN284", "medium", "`attn_type: vanilla-xformers`"),
        ("configs/unet.yaml", 3, 36, "TRN281", "medium", "`spatial_transformer_attn_type: softmax-flash_attn`"),
        ("configs/unet.yaml", 4, 18, "TRN283", "medium", "`amp_backend: apex`"),
    ]


def test_implementation_key_lookalikes(tmp_path):
    write(tmp_path, "configs/autoencoder.yaml", """
        model:
          params:
            attn_type: vanilla        # xformers on GPUs
            attn_backend: torch
            kernel_cache: /opt/xformers/kernels
            attention_note: ${oc.env:XFORMERS}
            attention_dropout: 0.1
            use_triton: true          # not an implementation key
            tokenizer: apex-tokenizer # not an implementation key
        """)
    write(tmp_path, "data/table.yaml", "attn_type: vanilla-xformers\nname: a\n")  # not a config
    assert found(tmp_path) == []


def test_private_config_field_mirrors_the_transformers_key(tmp_path):
    write(tmp_path, "examples/config_qwen.yaml", """
        model:
          model_config:
            _attn_implementation: flash_attention_2
            _attn_implementation_note: sdpa
        tokenizer:
          tokenizer_name_or_path: Qwen/Qwen2-7B
        """)
    write(tmp_path, "examples/config_tiny.yaml", """
        model:
          model_config:
            _attn_implementation: sdpa
        tokenizer:
          tokenizer_name_or_path: Qwen/Qwen2-7B
        """)
    assert found(tmp_path) == [("examples/config_qwen.yaml", 3, 27, "TRN282", "high",
                                "`_attn_implementation: flash_attention_2`")]


# ---------------------------------------------------------------- fp16 and cuDNN settings of a trainer


def test_trainer_precision_in_an_override_without_an_accelerator(tmp_path):
    write(tmp_path, "configs/experiment/celeba.yaml", """
        # @package _global_
        defaults:
          - /model: convnext
        trainer:
          precision: 16
          devices: 1
        """)
    write(tmp_path, "configs/experiment/cpu.yaml", """
        trainer:
          accelerator: cpu
          precision: 16
        """)
    write(tmp_path, "configs/experiment/auto.yaml", """
        trainer:
          accelerator: auto
          precision: 16-mixed
        """)
    write(tmp_path, "configs/experiment/bf16.yaml", """
        trainer:
          precision: bf16-mixed
        """)
    write(tmp_path, "configs/experiment/quant.yaml", """
        model:
          quantizer:
            precision: 16
        """)
    # `accelerator: auto` picks the recipe's GPUs: its float16 is reported too (session 35); `cpu` is not
    assert found(tmp_path) == [("configs/experiment/auto.yaml", 3, 14, "TRN254", "high", "`precision: 16-mixed`"),
                               ("configs/experiment/celeba.yaml", 5, 14, "TRN254", "high",
                                "`trainer.precision: 16`")]


def test_autocast_dtype(tmp_path):
    write(tmp_path, "config/solver/musicgen.yaml", """
        solver: musicgen
        autocast: true
        autocast_dtype: float16
        optim:
          lr: 1e-4
        """)
    write(tmp_path, "config/solver/debug.yaml", """
        solver: musicgen
        autocast: false
        autocast_dtype: float16
        optim:
          lr: 1e-4
        """)
    write(tmp_path, "config/solver/bf16.yaml", """
        solver: musicgen
        autocast: true
        autocast_dtype: bfloat16
        optim:
          lr: 1e-4
        """)
    assert found(tmp_path) == [("config/solver/musicgen.yaml", 3, 17, "TRN254", "high",
                                "`autocast_dtype: float16`")]


def test_lightning_trainer_benchmark(tmp_path):
    write(tmp_path, "configs/example_training/toy.yaml", """
        model:
          base_learning_rate: 1.0e-4
        lightning:
          trainer:
            benchmark: True
            max_epochs: 10
        """)
    write(tmp_path, "configs/eval.yaml", """
        model:
          name: x
        eval:
          benchmark: true
        trainer:
          benchmark: false
        """)
    write(tmp_path, "train.py", """
        import lightning as L
        trainer = L.Trainer(max_epochs=3, benchmark=True)
        quiet = L.Trainer(max_epochs=3, benchmark=False)
        """)
    assert found(tmp_path) == [
        ("configs/example_training/toy.yaml", 5, 16, "TRN261", "high", "`trainer.benchmark: True`"),
        ("train.py", 2, 11, "TRN261", "high", "`lightning.Trainer`"),
    ]


def test_fused_add_norm_of_a_mamba_config(tmp_path):
    write(tmp_path, "examples/mamba/config_mamba.yaml", """
        model:
          model_config:
            d_model: 768
            fused_add_norm: true
        optimizer:
          learning_rate: 3e-4
        """)
    write(tmp_path, "examples/mamba/config_small.yaml", """
        model:
          model_config:
            fused_add_norm: false
        optimizer:
          learning_rate: 3e-4
        """)
    assert found(tmp_path) == [("examples/mamba/config_mamba.yaml", 4, 21, "TRN292", "high",
                                "`fused_add_norm: true`")]


# ---------------------------------------------------------------- CI: GPU runners, CUDA images, install checks


def test_gpu_runner_group_and_cuda_job_image(tmp_path):
    write(tmp_path, ".github/workflows/gpu.yaml", """
        jobs:
          tests:
            runs-on:
              group: aws-g4dn-metal
            container:
              image: runpod/pytorch:2.1.1-py3.10-cuda12.1.1-devel-ubuntu22.04
              options: --gpus all --shm-size "8G"
            steps:
            - run: pip install "flash-attn>=2.5.0" --no-build-isolation
        """)
    write(tmp_path, ".github/workflows/cpu.yaml", """
        jobs:
          cpu:
            runs-on:
              group: aws-general-8-plus
            container:
              image: org/cudatools:1.2
            steps:
            - run: pytest
          wheels:
            runs-on: ubuntu-latest
            container:
              image: org/builder:cuda-free-1
            steps:
            - run: pytest
        """)
    assert found(tmp_path) == [
        (".github/workflows/gpu.yaml", 4, 14, "TRN610", "high", "`runs-on.group: aws-g4dn-metal`"),
        # the GPU leg's image is where it runs: reported (session 26), not guarded
        (".github/workflows/gpu.yaml", 6, 14, "TRN603", "high", "`runpod/pytorch:2.1.1-py3.10-cuda12.1.1-devel-ubuntu22.04`"),
        (".github/workflows/gpu.yaml", 7, 16, "TRN610", "high", "`--gpus all`"),
    ]
    # the CUDA image and the installs of another accelerator's leg are that leg's, listed as guarded
    guarded = [(f["line"], f["rule"], f["guarded_by"]) for f in scan(tmp_path, "--show-guarded")["findings"]
               if f.get("guarded")]
    assert guarded == [(9, "TRN501", "ci-other-accelerator")]  # the image is where the leg runs (session 26)


def test_cuda_tag_of_a_gitlab_job_image(tmp_path):
    write(tmp_path, ".gitlab-ci.yml", """
        unit:
          image: "org/app:1.2-cu121"
          script: [pytest]
        """)
    assert found(tmp_path) == [(".gitlab-ci.yml", 2, 11, "TRN603", "high", "`org/app:1.2-cu121`")]


def test_a_job_installing_the_project_is_an_install_check(tmp_path):
    write(tmp_path, ".github/workflows/build.yaml", """
        name: Build package
        jobs:
          build:
            runs-on: ubuntu-latest
            strategy:
              matrix:
                python-version: ["3.8", "3.10"]
            steps:
              - uses: actions/setup-python@v4
                with:
                  python-version: ${{ matrix.python-version }}
              - run: |
                  pip install -r requirements/pt2.txt
                  pip install .
        """)
    assert found(tmp_path) == [(".github/workflows/build.yaml", 7, 9, "TRN523", "high",
                                "`job build installs the project on Python 3.8, 3.10 only`")]


def test_release_and_lint_jobs_are_not_install_checks(tmp_path):
    write(tmp_path, ".github/workflows/release.yml", """
        name: Python release
        jobs:
          python_release:
            runs-on: ubuntu-latest
            steps:
            - uses: actions/setup-python@v4
              with:
                python-version: 3.10
            - run: |
                pip install setuptools wheel
                python setup.py sdist bdist_wheel
          lint:
            runs-on: ubuntu-latest
            steps:
            - uses: actions/setup-python@v4
              with:
                python-version: 3.10
            - run: |
                pip install -e .[dev]
                ruff check .
          build_documentation:
            runs-on: ubuntu-latest
            steps:
            - uses: actions/setup-python@v4
              with:
                python-version: 3.11
            - run: |
                pip install -e .[dev]
                doc-builder build optimum docs/source
        """)
    assert found(tmp_path) == []


def test_workflow_triggers_are_not_runners(tmp_path):
    """`on: push: tags:` names the tags that trigger a workflow; a runner is named by the job."""
    write(tmp_path, ".github/workflows/rocm.yml", """
        on:
          push:
            tags:
              - ciflow/rocm/*
        jobs:
          test:
            runs-on: self-hosted-rocm-ci
            steps:
              - run: pytest tests
        """)
    assert found(tmp_path) == [(".github/workflows/rocm.yml", 7, 14, "TRN610", "high",
                                "`runs-on: self-hosted-rocm-ci`")]


def test_hatch_script_of_a_named_environment_runs_the_tests(tmp_path):
    write(tmp_path, ".github/workflows/test-inference.yml", """
        jobs:
          test:
            runs-on: [self-hosted, slurm]
            steps:
              - uses: actions/setup-python@v4
                with:
                  python-version: "3.10"
              - run: hatch run ci:test-inference --junit-xml test-results.xml
          fmt:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/setup-python@v4
                with:
                  python-version: "3.10"
              - run: hatch run testing:fmt
        """)
    assert found(tmp_path) == [(".github/workflows/test-inference.yml", 7, 11, "TRN523", "high",
                                "`test job test runs on Python 3.10 only`")]


# ---------------------------------------------------------------- conda environments


def test_conda_python_spec_with_spaces(tmp_path):
    write(tmp_path, "environment.yml", """
        name: edm
        channels:
          - pytorch
        dependencies:
          - python>=3.8, < 3.10  # build failures on 3.10
          - numpy 1.2.*
        """)
    write(tmp_path, "envs/ok.yml", """
        name: ok
        channels:
          - conda-forge
        dependencies:
          - python >=3.8
          - python 3.12.*
        """)
    # `numpy 1.2.*` is a conda spec with a space too: NumPy 1.2 has no Python 3.12 wheel (TRN524)
    assert found(tmp_path) == [("environment.yml", 5, 5, "TRN522", "high", "`python>=3.8, < 3.10`"),
                               ("environment.yml", 6, 5, "TRN524", "high", "`numpy 1.2.*`")]


# ---------------------------------------------------------------- local composite actions

BUILD_ACTION = """
    name: project_build
    runs:
      using: "composite"
      steps:
      - uses: actions/setup-python@v4
        with:
          python-version: 3.9
      - name: Install dependencies
        shell: bash
        run: |
          pip install -e '.[dev]'
    """
TESTS_USING_IT = """
    jobs:
      run_tests:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v4
          - uses: ./.github/actions/project_build
          - run: make tests
    """


def test_python_of_a_local_action_used_by_the_test_job(tmp_path):
    """The test job's Python is the one its local action sets up: reported once, in the action."""
    write(tmp_path, ".github/actions/project_build/action.yml", BUILD_ACTION)
    write(tmp_path, ".github/workflows/tests.yml", TESTS_USING_IT)
    assert found(tmp_path) == [(".github/actions/project_build/action.yml", 7, 7, "TRN523", "high",
                                "`job project_build installs the project on Python 3.9 only`")]


def test_local_action_lookalikes(tmp_path):
    """Another workflow tests on 3.12; an action whose Python is an input; a reference out of the repository."""
    write(tmp_path, "a/.github/actions/project_build/action.yml", BUILD_ACTION)
    write(tmp_path, "a/.github/workflows/tests.yml", TESTS_USING_IT)
    write(tmp_path, "a/.github/workflows/new.yml", """
        jobs:
          tests:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/setup-python@v5
                with:
                  python-version: "3.12"
              - run: pytest tests
        """)
    write(tmp_path, "b/.github/actions/project_build/action.yml",
          BUILD_ACTION.replace("python-version: 3.9", "python-version: ${{ inputs.python-version }}"))
    write(tmp_path, "b/.github/workflows/tests.yml", TESTS_USING_IT)
    write(tmp_path, "c/.github/workflows/tests.yml", TESTS_USING_IT.replace(
        "./.github/actions/project_build", "./../a/.github/actions/project_build"))
    # a: another workflow of the project tests 3.12 (session 53): the action's job on an older Python is silent
    assert found(tmp_path / "a") == []
    assert found(tmp_path / "b") == [] and found(tmp_path / "c") == []


def test_cached_results_follow_the_local_action(tmp_path):
    """An action's result depends on the workflows: a warm re-scan sees a new workflow testing on 3.12 though
    the action itself did not change."""
    repo, cache = tmp_path / "repo", tmp_path / "cache"
    write(repo, ".github/actions/project_build/action.yml", BUILD_ACTION)
    write(repo, ".github/workflows/tests.yml", TESTS_USING_IT)

    def rules():
        proc = run_cli("scan", repo, "--format", "json", "--exit-zero", env={"TRNREADY_CACHE_DIR": str(cache)})
        return [(f["path"], f["rule"]) for f in json.loads(proc.stdout)["findings"]]

    assert rules() == [(".github/actions/project_build/action.yml", "TRN523")]
    write(repo, ".github/workflows/new.yml", """
        jobs:
          tests:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/setup-python@v5
                with:
                  python-version: "3.12"
              - run: pytest tests
        """)
    assert rules() == []  # the project's CI now tests 3.12 (session 53): the warm re-scan follows the new workflow


# ---------------------------------------------------------------- job scripts generated by Python launchers


def test_job_script_in_a_python_string(tmp_path):
    write(tmp_path, "slurm_launcher.py", '''
        def make_script(args, nodes, gpus_per_node):
            script = f"""#!/bin/bash
        #SBATCH --job-name={args.run}
        #SBATCH --nodes={nodes}
        #SBATCH --gpus-per-node={gpus_per_node}
        export CUDA_DEVICE_MAX_CONNECTIONS=1
        srun python train.py
        """
            return script
        ''')
    assert found(tmp_path) == [("slurm_launcher.py", 5, 9, "TRN610", "high", "`--gpus-per-node={gpus_per_node}`")]


def test_job_script_lookalikes(tmp_path):
    """A docstring showing a job script, a one-line string, and a multi-line string that is not a script."""
    write(tmp_path, "launch.py", '''
        """Submit with:

        #!/bin/bash
        #SBATCH --gres=gpu:8
        srun python train.py
        """
        HELP = "#SBATCH --gres=gpu:8 requests GPUs"
        NOTE = """Slurm jobs ask for GPUs
        with --gres=gpu:8 in their header."""


        def run():
            """#SBATCH --gpus-per-node=8 is added by the cluster profile."""
            return HELP, NOTE
        ''')
    assert found(tmp_path) == []


def test_anchored_executors_and_steps_used_only_by_gpu_jobs_are_those_jobs_legs(tmp_path):
    # CircleCI: the GPU executor and the CUDA install step are anchors merged into jobs; the CPU install step is
    # used by the CPU job too, so it is no leg (and its pin stays reported)
    write(tmp_path, ".circleci/config.yml", """
        version: 2.1

        gpu_exec: &gpu_exec
          machine:
            image: linux-cuda-12:2024.01.1
          resource_class: gpu.nvidia.medium

        cpu_exec: &cpu_exec
          docker:
            - image: cimg/base:2024.01
          resource_class: large

        install_cuda: &install_cuda
          - run:
              name: Install torch for the GPU jobs
              command: pip install torch==2.1.0+cu121 --extra-index-url https://download.pytorch.org/whl/cu121

        install_any: &install_any
          - run:
              name: Install an old torch
              command: pip install torch==1.13.0

        jobs:
          gpu_tests:
            <<: *gpu_exec
            steps:
              - checkout
              - <<: *install_cuda
              - <<: *install_any
              - run: pytest tests
          cpu_tests:
            <<: *cpu_exec
            steps:
              - checkout
              - <<: *install_any
              - run: pytest tests
        """)
    got = [(f["line"], f["rule"], f.get("guarded_by", "")) for f in scan(tmp_path, "--show-guarded")["findings"]
           if f["rule"] in ("TRN505", "TRN506", "TRN603", "TRN610")]
    assert sorted(got) == [(5, "TRN603", ""), (6, "TRN610", ""), (16, "TRN505", "ci-other-accelerator"),
                           (21, "TRN506", "")]


# ---------------------------------------------------------------- values written as Python string literals


def test_a_device_written_as_a_python_string_literal_is_that_string(tmp_path):
    # efficient_det_pytorch's flame configs (blind80) are evaluated by the project (`eval(config, {}, ...)`), so
    # their strings are quoted twice: `device: '''cuda'''` is the YAML string `'cuda'`, the Python string "cuda".
    # A value quoted once inside (`"'cpu'"`) or holding a quote of its own (`"'cuda' if x else 'cpu'"`) is no such
    # literal: only the first is a device here.
    write(tmp_path, "configs/coco_training.yaml", """
        loss:
          FocalLoss:
            device: '''cuda'''
        evaluator:
          device: "'cpu'"
        predictor:
          device: "'cuda' if gpu else 'cpu'"
        """)
    write(tmp_path, "train.py", """
        import yaml
        cfg = yaml.safe_load(open("configs/coco_training.yaml"))
        loss = FocalLoss(device=eval(cfg["loss"]["FocalLoss"]["device"]))
        """)
    assert found(tmp_path, "--select", "TRN242") == [
        ("configs/coco_training.yaml", 3, 13, "TRN242", "high", "`device: 'cuda'`"),
    ]
