"""Issue 15: training configs, CI workflows, Dockerfile ARG/ENV flow and launchers.

The snapshot below pins every finding the real CLI reports on the config-driven part of the labelled fixture
repository (tests/fixtures/accuracy_surface, labels in its expected.txt): path, line, column, rule and
message. The other tests cover the readers' edge cases on small files written for each case.
"""
import json
import textwrap

import pytest

from conftest import FIXTURES, REPO, run_cli, write
from trnready.readers.configs import role_of
from trnready.readers.docker import expand_lines
from trnready.readers.outline import outline

NEW_KINDS = ("configs/", "recipes/", "ds_configs/", "examples/", ".github/", ".gitlab", ".circleci",
             "docker/Dockerfile-", "launch/", "docker-compose")

SNAPSHOT = [
    ('.circleci/config.yml', 5, 14, 'TRN603', 'CUDA container base image: `linux-cuda-12:default`'),
    ('.circleci/config.yml', 6, 21, 'TRN610', 'GPU resource request in a job, container or cluster definition: `resource_class: gpu.nvidia.small`'),
    ('.circleci/config.yml', 24, 7, 'TRN604', 'Container image with a Python outside 3.12-3.14: `- image: cimg/python:3.9`'),
    ('.circleci/params.yml', 14, 14, 'TRN603', 'CUDA container base image: `linux-cuda-12:default`'),
    ('.circleci/params.yml', 15, 21, 'TRN610', 'GPU resource request in a job, container or cluster definition: `resource_class: gpu.nvidia.medium`'),
    ('.circleci/params.yml', 24, 11, 'TRN523', 'CI test job never runs Python 3.12-3.14: `test job unit runs on Python 3.8, 3.10 only`'),
    ('.github/workflows/gpu_test.yaml', 7, 14, 'TRN610', 'GPU resource request in a job, container or cluster definition: `runs-on: linux.g5.12xlarge.nvidia.gpu`'),
    ('.github/workflows/merge_checks.yml', 13, 26, 'TRN506', 'PyTorch pinned below 2.13: `torch==2.0.1+cpu`'),
    ('.github/workflows/merge_checks.yml', 21, 19, 'TRN505', 'CI matrix over CUDA versions: `matrix.include.cuda: 11.8` (the jobs install CUDA builds)'),
    ('.github/workflows/merge_checks.yml', 24, 26, 'TRN506', 'PyTorch pinned below 2.13: `torch==2.1.0`'),
    ('.github/workflows/merge_checks.yml', 32, 19, 'TRN505', 'CI matrix over CUDA versions: `matrix.include.cuda: 12.1` (the jobs install CUDA builds)'),
    ('.github/workflows/merge_checks.yml', 34, 73, 'TRN505', 'CUDA build of PyTorch (+cuXXX wheel or CUDA wheel index): `download.pytorch.org/whl/cu$CUDA_TAG`'),
    ('.github/workflows/min_torch.yml', 23, 26, 'TRN506', 'PyTorch pinned below 2.13: `torch==1.12.1+cpu`'),
    ('.github/workflows/unit_test.yaml', 11, 9, 'TRN523', 'CI test job never runs Python 3.12-3.14: `test job unit_tests runs on Python 3.9, 3.10, 3.11 only`'),
    ('.github/workflows/unit_test.yaml', 24, 33, 'TRN507', 'TorchAO declared as a dependency: `torchao`'),
    ('.github/workflows/wheels.yaml', 8, 9, 'TRN523', 'CI test job never runs Python 3.12-3.14: `job build_wheels builds wheels on Python 3.9, 3.10, 3.11 only`'),
    ('.gitlab-ci.yml', 9, 7, 'TRN523', 'CI test job never runs Python 3.12-3.14: `test job unit runs on Python 3.10, 3.11 only`'),
    ('.gitlab-ci.yml', 15, 10, 'TRN610', 'GPU resource request in a job, container or cluster definition: `tags: [gpu, nvidia]`'),
    ('configs/det3d/_base_/voxel_base.py', 6, 14, 'TRN296', 'Config building a sparse 3-D convolution encoder (spconv / mmcv.ops CUDA ops): `pts_middle_encoder.type: SparseEncoder`'),
    ('configs/det3d/dcn_backbone.py', 8, 23, 'TRN296', 'Config building a deformable convolution from mmcv.ops: `dcn.type: DCNv2` (a compiled CUDA op, no neuron kernel)'),
    ('configs/detection/fpn_fp16.yaml', 7, 13, 'TRN191', 'Bilinear or bicubic interpolation: `upsample_cfg.mode: bilinear`'),
    ('configs/detection/fpn_fp16.yaml', 18, 1, 'TRN254', 'float16 mixed precision section of an OpenMMLab config (Fp16OptimizerHook): `fp16`'),
    ('configs/detection/static_scale.yaml', 5, 1, 'TRN254', 'float16 mixed precision section of an OpenMMLab config (Fp16OptimizerHook): `fp16`'),
    ('configs/evalrun/linear_probe.yaml', 4, 11, 'TRN242', '"cuda" device string: `device: cuda:0`'),
    ('configs/finetune_hub/full.yaml', 4, 10, 'TRN613', 'Devices per node sized for the GPUs of a node: `devices: 4`'),
    ('configs/hf_compile/t5-neuron.yaml', 6, 14, 'TRN242', '"cuda" device string: `gpu_backend: cuda`'),
    ('configs/hf_compile/t5-small.yaml', 4, 16, 'TRN114', 'torch_compile: true with no torch_compile_backend: Hugging Face TrainingArguments fills in its default backend (inductor, in releases that do not detect Neuron)'),
    ('configs/hydra/finetune.yaml', 11, 16, 'TRN242', '"cuda" device string: `accelerator: cuda`'),
    ('configs/hydra/finetune.yaml', 23, 17, 'TRN283', 'NVIDIA Apex: `_target_: apex.optimizers.FusedAdam`'),
    ('configs/hydra/finetune.yaml', 26, 14, 'TRN271', 'Distributed process group on NCCL: `backend: nccl`'),
    ('configs/hydra/finetune.yaml', 32, 18, 'TRN610', 'GPU resource request in a job, container or cluster definition: `gpus_per_node: 8`'),
    # devices: [0, 1] (line 5, TRN610) is a place of this finding: one GPU request per mapping
    ('configs/lightning/trainer.yaml', 4, 16, 'TRN242', '"cuda" device string: `accelerator: gpu`'),
    ('configs/lightning/trainer.yaml', 6, 14, 'TRN254', 'float16 mixed precision switched on by a training setting or launch flag: `precision: 16-mixed`'),
    ('configs/lightning1/trainer_gpu.yaml', 2, 7, 'TRN610', 'GPU resource request in a job, container or cluster definition: `gpus: 4`'),
    ('configs/lightning1/trainer_gpu.yaml', 4, 12, 'TRN254', 'float16 mixed precision switched on by a training setting or launch flag: `precision: 16`'),
    ('configs/onmt/transformer-2gpu.yml', 7, 1, 'TRN610', 'GPU ranks a training config runs on: `gpu_ranks`'),
    ('configs/pixart/base_fp16.py', 7, 19, 'TRN254', 'float16 mixed precision switched on by a training setting or launch flag: `mixed_precision: fp16`'),
    ('configs/recipes/tokenizer_fp16.yaml', 6, 8, 'TRN254', 'float16 mixed precision switched on by a training setting or launch flag: `dtype: fp16`'),
    ('configs/reid/base.yml', 5, 14, 'TRN254', 'Mixed precision switched on by a training setting: `AMP.ENABLED: True` (float16 autocast with a GradScaler on CUDA)'),
    ('configs/segmentation/_base_/default_runtime.py', 8, 28, 'TRN271', 'Distributed process group on NCCL: `backend`'),
    ('configs/segmentation/_base_/default_runtime.py', 12, 19, 'TRN261', 'cuDNN / CUDA backend flag: `cudnn_benchmark: true`'),
    ('configs/ssm/lm.yaml', 6, 21, 'TRN281', 'flash-attn (CUDA-only kernels): `use_flash_attn: true`'),
    ('configs/torchtune/llama3_2_1b_lora.yaml', 8, 16, 'TRN285', 'bitsandbytes (8-bit / 4-bit CUDA kernels): `_component_: bitsandbytes.optim.PagedAdamW8bit`'),
    ('configs/torchtune/llama3_2_1b_lora.yaml', 16, 9, 'TRN242', '"cuda" device string: `device: cuda`'),
    ('configs/video/ltxv-2b-fp8.yaml', 4, 12, 'TRN202', 'float8 / float4 dtypes or scaled matmul: `precision: float8_e4m3fn`'),
    ('configs/vocoder/config.json', 10, 25, 'TRN271', 'Distributed process group on NCCL: `dist_backend: nccl`'),
    ('docker-compose.yaml', 8, 13, 'TRN610', 'GPU resource request in a job, container or cluster definition: `- driver: nvidia`'),
    ('docker/Dockerfile-cuda-base', 4, 33, 'TRN603', 'CUDA container base image: `nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04`'),
    ('docker/Dockerfile-cuda-base', 8, 20, 'TRN522', 'Python requirement excludes 3.12-3.14: `PYTHON_VERSION=3.10`'),
    ('docker/Dockerfile-cuda-base', 9, 22, 'TRN506', 'PyTorch pinned below 2.13: `torch==2.4.0`'),
    ('docker/Dockerfile-cuda-base', 14, 9, 'TRN507', 'TorchAO declared as a dependency: `torchao`'),
    ('docker/Dockerfile-cuda-base', 19, 20, 'TRN501', 'CUDA-only kernel library declared as a dependency: `https://github.com/Dao-AILab/flash-attention/releases/download/v2.6.3/flash_attn-2.6.3+cu123torch2.4cxx11abiFALSE-cp310-cp310-linux_x86_64.whl`'),
    ('ds_configs/fp16_off.json', 2, 4, 'TRN287', 'DeepSpeed config file: `train_micro_batch_size_per_gpu` (read by the DeepSpeed engine)'),
    ('ds_configs/optimizer_adam.json', 4, 13, 'TRN287', 'DeepSpeed optimizer built by the engine from its fused CUDA ops (FusedAdam, FusedLamb): `optimizer.type: AdamW`'),
    ('ds_configs/zero2_auto.json', 2, 4, 'TRN287', 'DeepSpeed config file: `zero_optimization` (read by the DeepSpeed engine)'),
    ('ds_configs/zero2_compile.json', 4, 16, 'TRN111', 'torch.compile with a backend other than neuron: `compile.backend: inductor`'),
    ('ds_configs/zero2_compile.json', 6, 4, 'TRN287', 'DeepSpeed config file: `zero_optimization` (read by the DeepSpeed engine)'),
    ('ds_configs/zero2_compile.json', 11, 16, 'TRN254', 'float16 mixed precision switched on by a training setting or launch flag: `fp16.enabled: true`'),
    ('examples/axolotl/qlora-fp8.yml', 8, 18, 'TRN282', 'Hugging Face model loaded with FlashAttention 2/3: `flash_attention: true`'),
    ('examples/axolotl/qlora-fp8.yml', 9, 17, 'TRN292', 'Kernel libraries for model layers (mamba-ssm, causal-conv1d, Liger, FlashInfer, Unsloth, MegaBlocks): `liger_rms_norm: true`'),
    ('examples/axolotl/qlora-fp8.yml', 11, 6, 'TRN201', 'TorchAO (quantization and float8 training): `fp8: true`'),
    ('examples/axolotl/qlora-fp8.yml', 12, 16, 'TRN114', 'torch_compile: true with no torch_compile_backend: Hugging Face TrainingArguments fills in its default backend (inductor, in releases that do not detect Neuron)'),
    ('examples/axolotl/qlora-fp8.yml', 13, 21, 'TRN112', 'torch.compile mode other than default: `torch_compile_mode: max-autotune`'),
    ('examples/axolotl/qlora-fp8.yml', 14, 12, 'TRN287', 'DeepSpeed: `deepspeed: deepspeed_configs/zero2.json`'),
    ('launch/compile_cache.sh', 3, 8, 'TRN113', 'Inductor or Triton compiler options: `TORCHINDUCTOR_FX_GRAPH_CACHE`'),
    ('launch/compile_cache.sh', 4, 1, 'TRN113', 'Inductor or Triton compiler options: `TORCHINDUCTOR_COMPILE_THREADS`'),
    ('launch/condor/train.submit', 4, 1, 'TRN610', 'HTCondor job asks for GPU slots: `request_gpus = $(ngpus)`'),
    ('launch/condor/vit/sub', 7, 2, 'TRN610', 'HTCondor job asks for GPU slots: `request_gpus = 1`'),
    ('launch/deepspeed_hosts.sh', 6, 1, 'TRN287', 'DeepSpeed: `launcher: deepspeed`'),
    ('launch/deepspeed_hosts.sh', 6, 11, 'TRN610', 'GPU resource request in a job, container or cluster definition: `--include localhost:0,1`'),
    ('launch/deepspeed_hosts.sh', 11, 11, 'TRN610', 'GPU resource request in a job, container or cluster definition: `--exclude=worker-1:0`'),
    ('launch/deepspeed_hosts.sh', 14, 27, 'TRN613', 'Processes per node sized for the GPUs of a node: `$WORKERS = 4`'),
    ('launch/ds_heredoc.sh', 6, 24, 'TRN613', 'Processes per node sized for the GPUs of a node: `8`'),
    ('launch/ds_heredoc.sh', 11, 4, 'TRN287', 'DeepSpeed config file: `zero_optimization` (read by the DeepSpeed engine)'),
    ('launch/ds_heredoc.sh', 15, 16, 'TRN254', 'float16 mixed precision switched on by a training setting or launch flag: `fp16.enabled: true`'),
    ('launch/gpu_counts.sh', 4, 1, 'TRN610', 'GPU resource request in a job, container or cluster definition: `GPU_PER_NODE`'),
    ('launch/gpu_counts.sh', 5, 8, 'TRN610', 'GPU resource request in a job, container or cluster definition: `NUM_GPUS_PER_WORKER`'),
    ('launch/gpu_counts.sh', 6, 1, 'TRN610', 'GPU resource request in a job, container or cluster definition: `NGPUS`'),
    ('launch/gpu_counts.sh', 14, 1, 'TRN612', 'nvidia-smi run by a script or a notebook cell: `nvidia-smi`'),
    ('launch/gpu_counts.sh', 15, 1, 'TRN612', 'nvidia-smi run by a script or a notebook cell: `nvidia-smi`'),
    ('launch/gpu_counts.sh', 19, 31, 'TRN242', '"cuda" device string: `accelerator: gpu`'),
    ('launch/gpu_type.sh', 6, 24, 'TRN242', '"cuda" device string: `gpu_type: cuda`'),
    ('launch/lightning_ddp.sh', 8, 5, 'TRN610', 'GPU resource request in a job, container or cluster definition: `--gpus=${n_gpus_per_node}`'),
    ('launch/lightning_ddp.sh', 10, 17, 'TRN261', 'cuDNN / CUDA backend flag: `benchmark: True`'),
    ('launch/lightning_ddp.sh', 14, 53, 'TRN613', 'Processes per node sized for the GPUs of a node: `8`'),
    ('launch/lightning_ddp.sh', 15, 27, 'TRN613', 'Processes per node sized for the GPUs of a node: `4`'),
    ('launch/modules/job.slurm', 4, 13, 'TRN611', 'CUDA toolkit loaded as an environment module, chosen by CUDA_HOME or installed on the host: `cuda/10.0`'),
    ('launch/modules/job.slurm', 5, 13, 'TRN615', 'NCCL loaded as an environment module: `NCCL/2.4.7-1-cuda.10.0`'),
    ('launch/modules/job.slurm', 6, 13, 'TRN611', 'CUDA toolkit loaded as an environment module, chosen by CUDA_HOME or installed on the host: `cudnn/v7.4-cuda.10.0`'),
    ('launch/modules/launcher.yaml', 3, 24, 'TRN611', 'CUDA toolkit loaded as an environment module, chosen by CUDA_HOME or installed on the host: `cudnn/v8.4.1.50-cuda.11.6`'),
    ('launch/modules/launcher.yaml', 3, 50, 'TRN615', 'NCCL loaded as an environment module: `NCCL/2.11.4-6-cuda.11.6`'),
    ('launch/multinode.slurm', 5, 9, 'TRN610', 'GPU resource request in a job, container or cluster definition: `--gpus-per-task=8`'),
    ('launch/multinode.slurm', 7, 8, 'TRN277', 'NCCL variable set for the job: `NCCL_ASYNC_ERROR_HANDLING`'),
    ('launch/multinode.slurm', 8, 43, 'TRN613', 'Processes per node sized for the GPUs of a node: `8`'),
    ('launch/own_flags/amp_train.py', 15, 14, 'TRN251', 'torch.cuda.amp (autocast, GradScaler, custom_fwd / custom_bwd): `torch.cuda.amp`; switched on by `--use_amp` at launch/own_flags/run_amp.sh:6 (read in `args.use_amp` at line 15)'),
    ('launch/own_flags/amp_train.py', 16, 10, 'TRN253', 'autocast or custom_fwd / custom_bwd on the "cuda" device: `torch.autocast`'),
    ('launch/own_flags/run_amp.sh', 5, 21, 'TRN254', 'float16 mixed precision switched on by a training setting or launch flag: `--fp16`'),
    ('launch/own_flags/run_amp.sh', 5, 43, 'TRN271', 'Distributed process group on NCCL: `$backend = nccl`'),
    ('launch/sourced/scripts/evaluate.sh', 7, 27, 'TRN613', 'Processes per node sized for the GPUs of a node: `$MP_SIZE = 8`'),
    ('launch/submit.py', 7, 32, 'TRN610', 'GPU resource request in a job, container or cluster definition: `gpus_per_node`'),
    ('launch/train.lsf', 2, 7, 'TRN610', 'Batch job sent to a GPU queue or partition: `-q gpu`'),
    ('launch/train.lsf', 5, 6, 'TRN610', 'Batch job sent to a GPU queue or partition: `-q gpu`'),
    ('launch/train_ppo_ray.sh', 6, 4, 'TRN610', 'GPU resource request in a job, container or cluster definition: `--ref.num_gpus_per_node 8`'),
    ('launch/train_ppo_ray.sh', 9, 24, 'TRN271', 'Distributed process group on NCCL: `nccl`'),
    ('recipes/accelerate/zero3.yaml', 8, 19, 'TRN287', 'DeepSpeed: `distributed_type: DEEPSPEED`'),
    ('recipes/accelerate/zero3.yaml', 12, 18, 'TRN254', 'float16 mixed precision switched on by a training setting or launch flag: `mixed_precision: fp16`'),
    ('recipes/sft/config_qlora.yaml', 5, 22, 'TRN282', 'Hugging Face model loaded with FlashAttention 2/3: `attn_implementation: flash_attention_2`'),
    ('recipes/sft/config_qlora.yaml', 6, 15, 'TRN286', 'Hugging Face 8-bit / 4-bit loading (load_in_8bit, load_in_4bit, BitsAndBytesConfig): `load_in_4bit: true`'),
    ('recipes/sft/config_qlora.yaml', 8, 19, 'TRN292', 'Kernel libraries for model layers (mamba-ssm, causal-conv1d, Liger, FlashInfer, Unsloth, MegaBlocks): `use_liger_kernel: true`'),
    ('recipes/sft/config_qlora.yaml', 22, 24, 'TRN111', 'torch.compile with a backend other than neuron: `torch_compile_backend: inductor`'),
]


def scan(path, *extra):
    proc = run_cli("scan", path, "--format", "json", "--no-cache", "--exit-zero", *extra)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def fixture_report():
    return scan(FIXTURES / "accuracy_surface")


def test_snapshot_of_config_driven_findings(fixture_report):
    got = [(f["path"], f["line"], f["column"], f["rule"], f["message"])
           for f in sorted(fixture_report["findings"], key=lambda f: (f["path"], f["line"]))
           if f["path"].startswith(NEW_KINDS)]
    assert got == SNAPSHOT


def findings(root):
    return sorted((f["path"], f["line"], f["column"], f["rule"]) for f in scan(root)["findings"])


# ---------------------------------------------------------------- which YAML/JSON files are configs

@pytest.mark.parametrize("rel,text,role", [
    (".github/workflows/ci.yml", "jobs:\n  t:\n    runs-on: x\n", "ci"),
    (".gitlab-ci.yml", "test:\n  script: [pytest]\n", "ci"),
    (".circleci/config.yml", "version: 2.1\njobs: {}\n", "ci"),
    ("recipes/x.yaml", "model:\n  _component_: a.b\n", "config"),
    ("x/train.yaml", "learning_rate: 1\nbatch_size: 2\n", "config"),
    ("configs/eval.yaml", "device: cuda\n", "config"),
    ("data/table.yaml", "device: cuda\nname: a\n", None),
    ("k8s/job.yaml", "apiVersion: batch/v1\nkind: Job\nspec:\n  device: cuda\n  seed: 1\n", None),
    ("docker-compose.yml", "services:\n  a:\n    image: x\n", None),
    ("docs/conf.yaml", "learning_rate: 1\nbatch_size: 2\n", None),
    (".github/dependabot.yml", "version: 2\nupdates: []\n", None),
    ("mkdocs.yml", "site_name: x\nnav: []\n", None),
    ("tools/replicate/cog.yaml", "build:\n  gpu: true\npredict: p.py:P\n", "container"),
    ("cog.yaml", "predict: p.py:P\n", None),  # no build section: nothing the image holds
])
def test_role_of(rel, text, role):
    assert role_of(rel, outline(text)) == role


# ---------------------------------------------------------------- the outline reader

def test_outline_positions_of_block_flow_and_json():
    text = "a:\n  b: [1, \"x\"]  # c\n  - ignored\nc: {d: true, e: [f]}\nrun: |\n  echo hi\n  pytest\nz: 1\n"
    got = [(e.keys, e.value, e.line, e.col, e.end_col) for e in outline(text) if e.value is not None]
    # the stray `- ignored` (invalid YAML) is read as an item of the enclosing key, never an error
    assert got == [(("a", "b"), "1", 2, 7, 8), (("a", "b"), "x", 2, 10, 13), (("a",), "ignored", 3, 5, 12),
                   (("c", "d"), "true", 4, 8, 12),
                   (("c", "e"), "f", 4, 18, 19), (("run",), "echo hi\npytest", 6, 3, 10), (("z",), "1", 8, 4, 5)]
    js = '{\n  "fp16": {\n    "enabled": true\n  },\n  "x": [1,\n        2]\n}\n'
    got = [(e.keys, e.value, e.line, e.col) for e in outline(js) if e.value is not None]
    assert got == [(("fp16", "enabled"), "true", 3, 16), (("x",), "1", 5, 9), (("x",), "2", 6, 9)]


def test_outline_sequence_items_group_their_keys():
    text = "steps:\n- uses: a\n  with:\n    v: 1\n- run: b\n"
    items = {e.keys: e.item for e in outline(text) if e.value is not None}
    assert items == {("steps", "uses"): 2, ("steps", "with", "v"): 2, ("steps", "run"): 5}


@pytest.mark.parametrize("text", ["{{ if .Values.gpu }}\nx: {{ .Values.x }}\n", "a: [1, {b: ]]\n", "::\n- - -\n",
                                  "{" * 500, '"unterminated: \'x\n  - {a: "b', "key: &anchor !!str value\n"])
def test_outline_never_raises_on_odd_input(text):
    outline(text)


# ---------------------------------------------------------------- configs: settings and components

def test_component_paths_resolve_through_the_python_catalogue(tmp_path):
    write(tmp_path, "configs/train.yaml", """
        optimizer:
          _target_: deepspeed.ops.adam.FusedAdam
        quantizer:
          _component_: torchao.quantization.quantize_
        loss:
          _target_: torch.nn.CrossEntropyLoss
        model:
          class_path: mypkg.models.Net
        """)
    assert findings(tmp_path) == [("configs/train.yaml", 2, 13, "TRN287"), ("configs/train.yaml", 4, 16, "TRN201")]


def test_with_setting_needs_the_other_key(tmp_path):
    write(tmp_path, "configs/a.yaml", "trainer:\n  accelerator: auto\n  precision: 16-mixed\n  devices: 4\n")
    write(tmp_path, "configs/b.yaml", "trainer:\n  accelerator: cuda\n  precision: \"16\"\n")
    write(tmp_path, "configs/c.yaml", "trainer:\n  accelerator: cpu\n  precision: 16-mixed\n  devices: 4\n")
    # devices: 4 under `auto` is no GPU request (TRN610) but a count sized for a GPU node (TRN613, advisory);
    # float16 under `auto` is the GPU recipe's AMP (session 35: deepspeech.pytorch); under `cpu` neither is reported
    assert findings(tmp_path) == [("configs/a.yaml", 3, 14, "TRN254"), ("configs/a.yaml", 4, 12, "TRN613"),
                                  ("configs/b.yaml", 2, 16, "TRN242"), ("configs/b.yaml", 3, 14, "TRN254")]


def test_suppression_comment_in_a_config(tmp_path):
    write(tmp_path, "configs/train.yaml", """
        output_dir: /tmp/x
        device: cuda  # trnready: ignore[TRN242] the CPU smoke test config
        dtype: bf16
        """)
    data = scan(tmp_path)
    f = next(f for f in data["findings"] if f["rule"] == "TRN242")
    assert (f["line"], f["suppressed"], f["suppression_reason"]) == (2, True, "the CPU smoke test config")


# ---------------------------------------------------------------- CI workflows

@pytest.mark.parametrize("case", ["doccheck"])
def test_ci_python_lookalikes(case):
    """A link checker is no test job."""
    assert not [f for f in scan(FIXTURES / "configs_ci" / case)["findings"] if f["rule"] == "TRN523"]


@pytest.mark.parametrize("case", ["covered", "samefile"])
def test_ci_python_silent_beside_a_job_on_312(case):
    """Another test job on a named 3.12+ Python (same file or same folder): the project's CI already tests a
    supported Python, and a job on older ones is a choice of what else to test (session 53; session 26 had
    reported it with a note)."""
    assert [f for f in scan(FIXTURES / "configs_ci" / case)["findings"] if f["rule"] == "TRN523"] == []


@pytest.mark.parametrize("case", ["unknown", "container"])
def test_ci_python_judged_per_job_beside_an_unknown_python(case):
    """A job on a version we cannot tell, or in a container whose Python is not named, does not silence a job on old
    Pythons only: it is reported, with a note."""
    got = [f["message"] for f in scan(FIXTURES / "configs_ci" / case)["findings"] if f["rule"] == "TRN523"]
    assert len(got) == 1 and got[0].endswith("(another CI job's Python cannot be told)")


def test_ci_python_from_env_and_gitlab_matrix(tmp_path):
    write(tmp_path, ".github/workflows/t.yml", """
        env:
          PY: "3.9"
        jobs:
          unit:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/setup-python@v5
                with:
                  python-version: ${{ env.PY }}
              - run: python -m unittest discover
        """)
    data = scan(tmp_path)
    f = next(f for f in data["findings"] if f["rule"] == "TRN523")
    assert (f["path"], f["line"], f["column"]) == (".github/workflows/t.yml", 2, 3)
    assert f["message"].endswith("`test job unit runs on Python 3.9 only`")


# ---------------------------------------------------------------- Dockerfiles

def test_dockerfile_name_variants_are_discovered(tmp_path):
    for name in ("Dockerfile-uv-base", "Dockerfile_gpu", "train.dockerfile", "Containerfile-dev"):
        write(tmp_path, name, "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n")
    write(tmp_path, "Dockerfile-notes.md", "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\n")
    assert [p for p, _, _, r in findings(tmp_path)] == ["Containerfile-dev", "Dockerfile-uv-base", "Dockerfile_gpu",
                                                       "train.dockerfile"]


def test_arg_expansion_keeps_the_origin_of_every_character():
    lines = ["ARG V=12.4", 'ARG IMG="nvidia/cuda:${V}"', "FROM ${IMG} AS base"]
    expanded, env, _, defs = expand_lines(lines)
    text, pos = expanded[2]
    assert text == "FROM nvidia/cuda:12.4 AS base"
    assert pos[5] == (2, 9, True) and pos[17] == (1, 6, True) and pos[0] == (3, 0, False)
    assert defs["IMG"] == (2, 10, "nvidia/cuda:12.4")


def test_from_arg_reported_at_the_arg_and_torch_version_from_arg(tmp_path):
    write(tmp_path, "Dockerfile", """
        ARG BASE=pytorch/pytorch:2.3.1-cuda12.1-cudnn8-runtime
        FROM ${BASE}
        ARG TORCH=2.3.1
        RUN pip install "torch==${TORCH}" numpy
        """)
    assert findings(tmp_path) == [("Dockerfile", 1, 10, "TRN603"), ("Dockerfile", 3, 11, "TRN506")]


# ---------------------------------------------------------------- catalogue keys of setting matchers

@pytest.mark.parametrize("match,needle", [
    ('setting = ["device"]\n', "values"),
    ('setting = ["device"]\nvalues = ["cuda"]\nrole = "docs"\n', "role"),
    ('call = ["f"]\nvalues = ["x"]\n', "values applies to setting matchers only"),
    ('setting = ["bad key"]\nvalues = ["x"]\n', "bad setting"),
    ('setting = ["precision"]\nvalues = ["16"]\nwithout-setting = ["accelerator"]\n', "without-setting"),
    ('setting = ["runs-on"]\nvalue-words = "no such list!"\nrole = "ci"\n', "value-words"),
    ('call = ["f"]\nvalue-words = "gpu-words"\n', "value-words applies to setting matchers only"),
    ('setting = ["zero_optimization"]\npresent = true\nvalues = ["*"]\n', "present"),
    ('setting = ["zero_optimization"]\npresent = "yes"\n', "must be true or false"),
    ('call = ["f"]\npresent = true\n', "present applies to setting matchers only"),
    ('keyword = ["mode"]\ncalls = false\n', "calls = false applies to keyword matchers with stores or defaults"),
    ('keyword = ["mode"]\nstores = true\ncalls = "no"\n', "must be true or false"),
])
def test_bad_setting_matcher_is_one_clear_error(tmp_path, match, needle):
    cat = tmp_path / "c.toml"
    cat.write_text(textwrap.dedent('''
        [catalogue]
        version = "1"
        [[rule]]
        id = "TRN999"
        name = "x"
        category = "cuda-device"
        severity = "change"
        title = "t"
        why = "w"
        fix = "f"
        source = [{ title = "PyTorch docs", url = "https://docs.pytorch.org/docs/stable/" }]
        docs = "https://example.com"
        examples = { hit = [], clean = [] }
        [[rule.match]]
        ''') + match)
    proc = run_cli("scan", tmp_path, "--catalogue", cat)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert str(cat) in proc.stderr and needle in proc.stderr


def test_cached_workflow_result_follows_its_sibling_workflows(tmp_path):
    """A workflow's TRN523 depends on the other workflows of its folder: a warm re-scan must see a change
    there even though the workflow itself did not change."""
    repo, cache = tmp_path / "repo", tmp_path / "cache"
    write(repo, ".github/workflows/old.yml", """
        jobs:
          unit:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/setup-python@v5
                with:
                  python-version: "3.10"
              - run: pytest tests
        """)
    sibling = write(repo, ".github/workflows/new.yml", "name: other\non: [push]\n")

    def rules():
        proc = run_cli("scan", repo, "--format", "json", "--exit-zero", env={"TRNREADY_CACHE_DIR": str(cache)})
        return [f["message"][-10:] for f in json.loads(proc.stdout)["findings"]]

    assert rules() == ["3.10 only`"]
    sibling.write_text(textwrap.dedent("""
        jobs:
          tests:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/setup-python@v5
                with:
                  python-version: "3.12"
              - run: pytest tests
        """))
    assert rules() == []  # the sibling now tests 3.12 (session 53): the warm re-scan follows it and drops the job


def test_buildkite_step_python_and_gpu_queue(tmp_path):
    write(tmp_path, ".buildkite/pipeline.yml", """
        steps:
          - label: "unit tests"
            command: pytest -q tests
            env:
              PYTHON_VERSION: "3.10"
            agents:
              queue: gpu-a100
          - label: "lint"
            command: ruff check .
        """)
    got = [(f["line"], f["column"], f["rule"], f["message"]) for f in scan(tmp_path)["findings"]]
    # A step on a GPU queue is the GPU leg: its Python is not the project's; the queue is the one item.
    assert got == [(7, 14, "TRN610", "GPU resource request in a job, container or cluster definition: "
                                     "`agents.queue: gpu-a100`")]
    (tmp_path / ".buildkite/pipeline.yml").write_text((tmp_path / ".buildkite/pipeline.yml").read_text()
                                                      .replace("gpu-a100", "cpu-large"))
    got = [(f["line"], f["column"], f["rule"], f["message"]) for f in scan(tmp_path)["findings"]]
    assert got == [(5, 7, "TRN523", "CI test job never runs Python 3.12-3.14: `test job unit tests runs on Python 3.10 only`")]


# ---------------------------------------------------------------- CI jobs on another accelerator

GPU_JOBS = """
    jobs:
      gpu:
        runs-on: [self-hosted, gpu]
        container:
          image: nvidia/cuda:12.4.1-devel-ubuntu22.04
        env:
          CUDA_VISIBLE_DEVICES: "0,1"
        steps:
          - run: pip install torch --index-url https://download.pytorch.org/whl/cu124
          - run: pytest tests/gpu
      cpu:
        runs-on: ubuntu-latest
        steps:
          - run: pip install torch --index-url https://download.pytorch.org/whl/cu124
          - uses: docker/build-push-action@v6
            with:
              tags: org/image-gpu:latest
          - run: pytest tests
    """


def test_findings_of_a_job_on_a_gpu_runner_are_guarded(tmp_path):
    """The GPU leg's CUDA_VISIBLE_DEVICES and CUDA wheel are guarded (listed with --show-guarded); its runner and
    its container image (where it runs, session 26) stay reported. The CPU job's CUDA wheel is the project's and stays reported."""
    write(tmp_path, ".github/workflows/ci.yml", GPU_JOBS)
    shown = [(f["line"], f["rule"], f["guarded"]) for f in scan(tmp_path, "--show-guarded")["findings"]]
    assert shown == [(3, "TRN610", False), (5, "TRN603", False), (7, "TRN605", True), (9, "TRN505", True),
                     (14, "TRN505", False)]
    assert [(f["line"], f["rule"]) for f in scan(tmp_path)["findings"]] == [(3, "TRN610"), (5, "TRN603"),
                                                                            (14, "TRN505")]


def test_gpu_items_of_a_matrix_and_gpu_containers(tmp_path):
    """One matrix.include item on a GPU runner is guarded, its CPU sibling item is not; a job whose container
    gets `--gpus` is a GPU leg as a whole (TRL-style `runs-on: group:` runners, reported by the words of the
    group's name)."""
    write(tmp_path, ".github/workflows/ci.yml", """
        jobs:
          test:
            strategy:
              matrix:
                include:
                  - runs-on: linux.g5.12xlarge.nvidia.gpu
                    torch-spec: --index-url https://download.pytorch.org/whl/cu126
                  - runs-on: linux.4xlarge
                    torch-spec: --index-url https://download.pytorch.org/whl/cu126
            runs-on: ${{ matrix.runs-on }}
            steps:
              - run: pytest test
          multi:
            runs-on:
              group: aws-g4dn-2xlarge
            container:
              image: pytorch/pytorch:2.8.0-cuda12.8-cudnn9-devel
              options: --gpus all
            steps:
              - run: make test
        """)
    shown = [(f["line"], f["rule"], f["guarded"]) for f in scan(tmp_path, "--show-guarded")["findings"]]
    assert shown == [(6, "TRN610", False), (7, "TRN505", True), (9, "TRN505", False), (15, "TRN610", False),
                     (17, "TRN603", False), (18, "TRN610", False)]


def test_a_runner_read_from_a_matrix_key(tmp_path):
    """`runs-on: ${{ matrix.os }}` runs the job on the matrix's `os` values: a GPU machine named there is the
    runner finding (at the value), and the job is a GPU leg whose other findings are guarded. A matrix of
    ordinary machines read the same way stays unreported."""
    write(tmp_path, ".github/workflows/tests_cuda.yml", """
        jobs:
          tests:
            strategy:
              matrix:
                python:
                  - "3.11"
                os:
                  - "linux-x86_64-gpu-2"
            runs-on: ${{ matrix.os }}
            steps:
              - run: pip install torch --index-url https://download.pytorch.org/whl/cu124
              - run: make test
        """)
    write(tmp_path, ".github/workflows/tests.yml", """
        jobs:
          tests:
            strategy:
              matrix:
                python: ["3.12"]
                os: [ubuntu-latest, macos-latest]
            runs-on: ${{ matrix.os }}
            steps:
              - run: pip install torch --index-url https://download.pytorch.org/whl/cu124
              - run: make test
        """)
    shown = [(f["path"], f["line"], f["rule"], f["guarded"]) for f in scan(tmp_path, "--show-guarded")["findings"]]
    assert shown == [(".github/workflows/tests.yml", 9, "TRN505", False),
                     (".github/workflows/tests_cuda.yml", 8, "TRN610", False),
                     (".github/workflows/tests_cuda.yml", 11, "TRN505", True)]


def test_ci_job_python_from_a_conda_command(tmp_path):
    """`conda create -n env python=3.10` in a test job is that job's Python: reported as the project's
    requirement only when no other test job runs on 3.12+ (and never for a GPU leg)."""
    job = """
        jobs:
          cpu:
            runs-on: linux.4xlarge
            steps:
              - run: |
                  conda create -n venv python=3.10 -y
                  pytest test
        """
    write(tmp_path, ".github/workflows/cpu.yml", job)
    got = [(f["line"], f["column"], f["rule"], f["message"]) for f in scan(tmp_path)["findings"]]
    assert got == [(6, 11, "TRN523", "CI test job never runs Python 3.12-3.14: `test job cpu runs on Python 3.10 only`")]
    write(tmp_path, ".github/workflows/new.yml", job.replace("3.10", "3.12"))
    assert [f for f in scan(tmp_path)["findings"] if f["rule"] == "TRN523"] == []  # the CI tests 3.12 (session 53)
    (tmp_path / ".github/workflows/new.yml").unlink()
    write(tmp_path, ".github/workflows/cpu.yml", job.replace("linux.4xlarge", "linux.rocm.gpu.mi300"))
    assert [f["rule"] for f in scan(tmp_path)["findings"]] == ["TRN610"]


GPU_IMAGE = """
    ARG BASE=nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04
    FROM ${BASE}
    RUN pip install deepspeed torchao
    ENV CUDA_VISIBLE_DEVICES=0
    """


@pytest.mark.parametrize("rel,sibling,guarded", [
    ("docker/app-gpu/Dockerfile", "docker/app-cpu/Dockerfile", True),
    ("docker/Dockerfile.rocm", "docker/Dockerfile", True),
    ("docker/Dockerfile.rocm", "docker/Dockerfile.cuda", False),
    ("docker/Dockerfile-cuda-base", None, False),
    ("docker/Dockerfile-cuda-base", "docker/Dockerfile_cpu", False),
    ("docker/Dockerfile-cuda-base", "docker/Dockerfile-neuron-base", True),
    ("docker/app/Dockerfile", "docker/app-cpu/Dockerfile", False),
    ("tools/gpustat/Dockerfile", "tools/cpu/Dockerfile", False)])
def test_dockerfile_of_another_accelerators_image_variant(tmp_path, rel, sibling, guarded):
    """A Dockerfile whose path names another accelerator, next to the same path with a CPU / Neuron label or
    none, builds that accelerator's variant of one image: its installs are guarded and its base image (reported
    at the ARG that feeds FROM) stays the one item. A project's only image, or one next to other images only
    (`Dockerfile_cpu` is not the CPU variant of `Dockerfile-cuda-base`), is an image to port; a path token that
    only contains such a word (`gpustat`) names no accelerator."""
    write(tmp_path, rel, GPU_IMAGE)
    if sibling:
        write(tmp_path, sibling, "FROM python:3.12-slim\n")
    got = [(f["line"], f["rule"], f["guarded"]) for f in scan(tmp_path, "--show-guarded")["findings"]]
    assert got == [(1, "TRN603", False), (3, "TRN502", guarded), (3, "TRN507", guarded), (4, "TRN605", guarded)]


def test_container_build_definitions_and_their_look_alikes(tmp_path):
    write(tmp_path, "tools/replicate/cog.yaml", """
        build:
          gpu: true
          system_packages:
            - "libgl1-mesa-glx"
          python_version: "3.11"
        predict: "predict_t2v.py:Predictor"
        """)
    # the same keys in a training config and in a CPU-only cog build stay unreported
    write(tmp_path, "configs/train.yaml", """
        build:
          gpu: true
          python_version: "3.11"
        model: resnet50
        optimizer: adamw
        """)
    write(tmp_path, "cpu/cog.yaml", """
        build:
          gpu: false
          python_version: "3.12"
        predict: "predict.py:Predictor"
        """)
    assert findings(tmp_path) == [("tools/replicate/cog.yaml", 2, 8, "TRN610"),
                                  ("tools/replicate/cog.yaml", 5, 19, "TRN604")]


def test_training_config_names_of_cuda_only_implementations(tmp_path):
    write(tmp_path, "examples/mod/llama3_full_sft.yaml", """
        model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct
        learning_rate: 1.0e-5
        optim: paged_adamw_8bit
        flash_attn: fa2
        """)
    write(tmp_path, "examples/qlora/llama3_lora_sft.yaml", """
        model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct
        quantization_bit: 4
        learning_rate: 1.0e-4
        """)
    write(tmp_path, "examples/fp8/llama3_fp8_sft.yaml", """
        model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct
        learning_rate: 1.0e-5
        fp8_backend: torchao
        """)
    write(tmp_path, "finetune/accelerate_config.yaml", """
        compute_environment: LOCAL_MACHINE
        gpu_ids: "0,1,2,3"
        distributed_type: MULTI_GPU
        """)
    # look-alikes: a torch optimizer, SDPA, another quantization method, all devices, a lint config
    write(tmp_path, "examples/full/llama3.yaml", """
        model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct
        learning_rate: 1.0e-5
        optim: adamw_torch
        flash_attn: sdpa
        quantization_bit: 4
        quantization_method: hqq
        """)
    write(tmp_path, "examples/accelerate/ddp.yaml", """
        compute_environment: LOCAL_MACHINE
        gpu_ids: all
        distributed_type: MULTI_GPU
        """)
    write(tmp_path, ".pre-commit-config.yaml", """
        repos:
          - repo: local
            optim: paged_adamw_8bit
        """)
    assert findings(tmp_path) == [
        ("examples/fp8/llama3_fp8_sft.yaml", 3, 14, "TRN201"),
        ("examples/mod/llama3_full_sft.yaml", 3, 8, "TRN285"),
        ("examples/mod/llama3_full_sft.yaml", 4, 13, "TRN282"),
        ("examples/qlora/llama3_lora_sft.yaml", 2, 19, "TRN286"),
        ("finetune/accelerate_config.yaml", 2, 10, "TRN610"),
    ]


CI_TORCH_PIN = """
    jobs:
      test:
        runs-on: ubuntu-latest
        steps:
          - run: pip install torch==1.9.0 pytest
          - run: pytest
    """


@pytest.mark.parametrize("packaging,guarded", [
    ({"setup.py": 'from setuptools import setup\nsetup(name="p", install_requires=["torch>=1.7.0"])\n'}, True),
    ({"pyproject.toml": '[project]\nname = "p"\ndependencies = ["torch"]\n'}, True),
    ({"setup.cfg": "[options]\ninstall_requires =\n    torch>=1.9,<2.3\n"}, False),
    ({"pyproject.toml": '[project]\nname = "p"\n[project.optional-dependencies]\ntorch = ["torch>=2"]\n'}, False),
    ({}, False)])
def test_ci_torch_pin_beside_a_requirement_that_admits_neuron_torch(tmp_path, packaging, guarded):
    """A CI job's old torch pin is guarded (`admitted-torch`, listed with --show-guarded) when the project's own
    torch requirement admits 2.13/2.14 (an unconstrained torch admits every release): the pin is what that job
    tests on. A requirement capped below 2.13 (reported itself), one declared only in an extra, or no declaration
    leaves the CI pin as the evidence of what the project runs on."""
    write(tmp_path, ".github/workflows/tests.yml", CI_TORCH_PIN)
    for rel, text in packaging.items():
        write(tmp_path, rel, text)
    got = [(f["path"], f["line"], f["column"], f["rule"], f["guarded"], f.get("guarded_by", ""))
           for f in scan(tmp_path, "--show-guarded")["findings"] if f["rule"] == "TRN506"]
    ci = [g for g in got if g[0] == ".github/workflows/tests.yml"]
    assert ci == [(".github/workflows/tests.yml", 5, 26, "TRN506", guarded, "admitted-torch" if guarded else "")]
