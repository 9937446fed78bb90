"""Launchers, images, CI and configs (session 13): the fixture repository tests/fixtures/surfaces_s13 holds lines that
must be reported and look-alikes that must not, on every surface changed there:

- Hydra / OmegaConf overrides on a launch line read as config keys (readers/launch_args.py);
- environment switches naming flash-attention, the cuBLAS TF32 override, `FORCE_CUDA`, nvcc `-gencode`,
  `*_FORCE_BUILD`, `--nproc-per-node="${NPROC_PER_NODE:-8}"`, a GPU-id list variable (blockers.toml line matchers);
- `FROM ${BASE_IMAGE}` as a place of the ARG's finding, one finding per source build in a RUN step (readers/docker.py);
- a GPU-count variable that only sizes a job loop folded into the script's CUDA_VISIBLE_DEVICES finding
  (readers/lines.py);
- CI: a runner expression's quoted fallback (`L20x8`, readers/configs.py); a lint job stays out (readers/ci.py);
- settings `rollout.name: vllm`, `n_gpus_per_node`, `optim_wrapper.dtype` (blockers.toml).
"""
import json

import pytest

from conftest import FIXTURES, run_cli

ROOT = FIXTURES / "surfaces_s13"

# (path, line, rule) -> occurrences (line, rule) of every reported (unguarded) finding
EXPECTED = {
    (".github/workflows/gpu.yml", 5, "TRN610"): [],  # runs-on fallback 'L20x8'
    (".github/workflows/gpu.yml", 7, "TRN501"): [],  # pip install flash-attn in that job
    (".github/workflows/gpu.yml", 12, "TRN302"): [],  # -gencode=arch=compute_61
    ("configs/generation.yaml", 3, "TRN610"): [],  # n_gpus_per_node: 8
    ("configs/generation.yaml", 7, "TRN291"): [],  # rollout: name: vllm
    ("configs/llama/llama2_7b_qlora.py", 5, "TRN254"): [],  # optim_wrapper dtype="float16"
    # an mmengine/xtuner config module with `x *= y` and an `if` that only assigns is still a config module
    ("configs/xtuner/qlora_e3.py", 15, "TRN254"): [],
    ("docker/Dockerfile", 2, "TRN603"): [(4, "TRN603")],  # ARG BASE_IMAGE, used by FROM ${BASE_IMAGE}
    ("docker/Dockerfile", 5, "TRN302"): [],  # ENV FORCE_CUDA="1"
    ("docker/Dockerfile", 6, "TRN504"): [(8, "TRN302")],  # apex clone; its --cuda_ext build is the same thing
    ("docker/Dockerfile", 10, "TRN501"): [],  # FLASH_ATTENTION_FORCE_BUILD=TRUE
    # NCCL variables a launcher exports: TRN277 advisories since session 57, as when Python sets them (they were
    # look-alikes here before; 8 of 9 recall labels and 10 of 18 TRN277 verdicts count them as items)
    ("examples/run_grpo.sh", 3, "TRN277"): [],  # export NCCL_DEBUG=INFO
    ("examples/run_grpo.sh", 4, "TRN277"): [],  # export NCCL_NVLS_ENABLE=1
    ("examples/run_grpo.sh", 8, "TRN291"): [],  # actor_rollout_ref.rollout.name=vllm
    ("examples/run_grpo.sh", 10, "TRN292"): [],  # model.use_liger=True
    ("examples/run_grpo.sh", 12, "TRN610"): [],  # trainer.n_gpus_per_node=8
    ("examples/run_sft.sh", 2, "TRN281"): [],  # XTUNER_USE_FA3 defaulting to 1
    ("examples/run_sft.sh", 4, "TRN281"): [],  # VLLM_ATTENTION_BACKEND=FLASH_ATTN
    ("examples/run_sft.sh", 5, "TRN261"): [],  # TORCH_ALLOW_TF32_CUBLAS_OVERRIDE
    ("examples/run_sft.sh", 8, "TRN613"): [],  # --nproc-per-node="${NPROC_PER_NODE:-8}"
    ("scripts/demo_jobs.sh", 6, "TRN605"): [(2, "TRN610")],  # TOTAL_GPUS only sizes the job loop
    # NGPUS=4; `--num_gpus $NGPUS` asks for the same GPUs: one finding, at the flag (matched as written since
    # session 28, like `--gpus $GPUS` below), the assignment its place
    ("scripts/eval_batch.sh", 5, "TRN610"): [(3, "TRN610")],
    ("scripts/eval_batch.sh", 4, "TRN610"): [(2, "TRN610")],  # --gpus $GPUS, GPUS="[0,...,7]" its place
    # a Hydra group file is the `trainer` node: Lightning reads trainer.accelerator (not config-key-unread)
    ("training/configs/trainer/ddp.yaml", 4, "TRN242"): [],
}


@pytest.fixture(scope="module")
def report():
    proc = run_cli("scan", str(ROOT), "--format", "json", "--no-cache", "--exit-zero", "--show-guarded")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["findings"]


def test_every_expected_finding_and_nothing_else(report):
    got = {(f["path"], f["line"], f["rule"]): [(o["line"], o["rule"]) for o in f.get("occurrences") or ()]
           for f in report if not f.get("guarded")}
    assert got == EXPECTED


def test_lookalikes_stay_clean(report):
    lines = {(f["path"], f["line"]) for f in report if not f.get("guarded")}
    lines |= {(f["path"], o["line"]) for f in report for o in f.get("occurrences") or ()}
    for place in [("examples/run_grpo.sh", 5),  # commented export
                  ("examples/run_grpo.sh", 15), ("examples/run_grpo.sh", 16), ("examples/run_grpo.sh", 17),
                  ("examples/run_grpo.sh", 18),  # rollout.name=hf, use_liger=False, n_gpus_per_node=0, echo
                  ("examples/run_sft.sh", 3), ("examples/run_sft.sh", 6), ("examples/run_sft.sh", 10),
                  ("docker/Dockerfile", 11),  # FLASH_ATTENTION_SKIP_CUDA_BUILD
                  ("configs/sft.yaml", 3), ("configs/sft.yaml", 7),
                  ("configs/llama/llama2_7b_bf16.py", 2),
                  ("configs/xtuner/script_like.py", 3),  # `if __name__ == "__main__": print(...)`: a script
                  (".github/workflows/links.yml", 9),  # a link checker on 3.10
                  (".github/workflows/pre-commit.yml", 10),  # lint jobs stay out (session 13 decision, docs)
                  (".github/workflows/gpu.yml", 10)]:  # runs-on fallback 'ubuntu-latest'
        assert place not in lines, place


def test_a_runner_fallback_is_a_gpu_request_but_not_a_leg(report):
    # the fallback 'L20x8' is reported (TRN610, line 5), but a caller may name another machine: the job's install
    # stays reported rather than guarded as another accelerator's leg
    job = [f for f in report if f["path"] == ".github/workflows/gpu.yml" and f["line"] == 7]
    assert [(f["rule"], f.get("guarded", False)) for f in job] == [("TRN501", False)]


def test_a_global_package_is_not_placed_under_its_group(report):
    # look-alike: `# @package _global_` puts `accelerator` at the root, where no code of the project reads it
    f = [f for f in report if f["path"] == "training/configs/experiment/base.yaml"]
    assert [(f["line"], f["rule"], f["guarded_by"]) for f in f] == [(5, "TRN242", "config-key-unread")]
