"""Candidate locations to label for bench/recall.py, found by a plain grep (never by trnready).

Labelling goes: run this on a fetched repository, read every printed candidate in its context and
write it down as hit or look-alike (bench/data/recall_labels.csv) *before* scanning that repository
with trnready. The patterns are deliberately wider than the catalogue, so that misses show up.

    python bench/recall_candidates.py /work/repos/dinov2 --mode py --per-category 4
    python bench/recall_candidates.py /work/repos/torchtune --mode cfg --per-category 4

--mode py samples Python files and notebooks outside tests, benchmarks and docs; --mode cfg samples
the non-Python files (YAML/JSON configs, CI workflows, Dockerfiles, launch scripts). Each category
contributes at most --per-category candidates, drawn with a fixed seed so that a run can be repeated.
Notebook lines are lines of the .ipynb JSON text, which is what bench/recall.py matches on.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import re

PAT = {
 'dynamic-shapes': r'dynamic\s*=\s*True|mark_dynamic|mark_unbacked|\bDim\(|dynamic_shapes\s*=|\.nonzero\(|torch\.nonzero|argwhere|masked_select|\.unique\(|torch\.unique|unique_consecutive|bincount|repeat_interleave|torch\.where\([^,()]*\)|\[\s*~?\w*mask\w*\s*\]',
 'compile-options': r'torch\.compile|\.compile\(|set_default_backend|torch_compile|_inductor|backend\s*=\s*["\'](inductor|cudagraphs|aot_eager)|mode\s*=\s*["\']max-autotune',
 'float64': r'float64|\.double\(\)|torch\.double|complex128|cdouble|DoubleTensor',
 'int64': r'iinfo\(torch\.(int64|long)|bitwise_(left|right)_shift|bitwise_xor|<<\s*3[2-9]|>>\s*3[2-9]|time_ns|2\s*\*\*\s*(3[2-9]|6[0-4])|0x[fF]{9,}|dtype=torch\.(int64|long)\).*(cumsum|prod)|cumsum\(.*torch\.(int64|long)',
 'sparse': r'sparse',
 'nested-tensor': r'torch\.nested|jagged|TransformerEncoder\(|enable_nested_tensor',
 'forward-ad': r'forward_ad|\bjvp\b|jacfwd|\bhessian\b|linearize|functorch|forward-mode',
 'attention-mask': r'scaled_dot_product_attention|MultiheadAttention|key_padding_mask|multi_head_attention_forward|TransformerEncoderLayer|TransformerDecoder|nn\.Transformer\b',
 'per-channel-quant': r'per_channel|qconfig|fbgemm|PerChannel',
 'upsampling': r'interpolate\(|Upsample|bilinear|bicubic|upsample',
 'fp8-torchao': r'torchao|float8|_scaled_mm|float4_',
 'flex-attention': r'flex_attention|create_block_mask|BlockMask',
 'legacy-neuron': r'torch_xla|torch_neuronx|neuronx|xla_device|optimum\.neuron|XLA_USE_BF16|NEURON_CC_FLAGS|trn1|inf2',
 'cuda-device': r'\.cuda\(|["\']cuda(:\d+)?["\']|torch\.cuda\.|CUDA_VISIBLE_DEVICES|ProfilerActivity\.CUDA|use_cuda\s*=\s*True|device_map|accelerator\s*[=:]\s*["\']?(gpu|cuda)|device\s*:\s*cuda|nvidia\.com/gpu|--gres|--gpus|gpus_per_node|PYTORCH_CUDA_ALLOC_CONF|CUDA_LAUNCH_BLOCKING',
 'cuda-amp': r'cuda\.amp|autocast|GradScaler|fp16\s*[=:]\s*(True|true)|mixed_precision\s*[=:]\s*["\']?fp16|precision\s*[=:]\s*["\']?16',
 'cuda-backend-flags': r'backends\.cudnn|backends\.cuda|CUDAGraph|cuda\.graph|make_graphed_callables|reduce-overhead|SDPBackend\.(FLASH|EFFICIENT|CUDNN)',
 'distributed-backend': r'nccl|NCCL|init_process_group|DeviceMesh|init_device_mesh|dist_backend|ddp_backend',
 'cuda-library': r'flash_attn|flash_attention_[23]|\bapex\b|xformers|bitsandbytes|load_in_[48]bit|deepspeed|\btriton\b|cupy|pycuda|numba\.cuda|transformer_engine|liger|mamba_ssm|flashinfer|vllm|pynvml|gptq|awq|tensorrt|dask_cuda|cudf|cuml|cugraph|fbgemm_gpu|unsloth|mmcv\.ops',
 'custom-cuda-kernel': r'CUDAExtension|cpp_extension|load_inline|triton\.jit|triton\.autotune|RawKernel|cuda\.jit|custom_op|register_kernel|library\.impl',
 'environment': r'python-version|python_version|PYTHON_VERSION|python:3\.|FROM |BASE_IMAGE|requires-python|python_requires|nvidia/cuda|nvcr\.io|pytorch/pytorch:|HF_DEACTIVATE|NEFF_CACHE',
}
RX = {k: re.compile(v) for k, v in PAT.items()}
TEXT_EXT = (".py", ".yaml", ".yml", ".sh", ".toml", ".cfg", ".txt", ".json", ".slurm", ".sbatch", ".ipynb")


def files(root: str):
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".") or x == ".github"]
        for name in names:
            path = os.path.join(d, name)
            if (name.endswith(TEXT_EXT) or name.startswith("Dockerfile") or name.endswith(".dockerfile")) \
                    and os.path.getsize(path) <= 2_000_000:
                yield os.path.relpath(path, root), path


def wanted(rel: str, mode: str) -> bool:
    low = rel.lower()
    if mode == "py":
        return rel.endswith((".py", ".ipynb")) and "test" not in low and "benchmark" not in low \
            and not low.startswith("docs")
    return not rel.endswith((".py", ".ipynb", ".md", ".txt", ".toml", ".cfg")) \
        and "test" not in low.split("/")[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root")
    ap.add_argument("--mode", choices=("py", "cfg"), default="py")
    ap.add_argument("--per-category", type=int, default=4)
    ap.add_argument("--seed", type=int, default=14)
    args = ap.parse_args()
    by_cat = collections.defaultdict(list)
    texts = {}
    for rel, path in files(args.root):
        if not wanted(rel, args.mode):
            continue
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
        texts[rel] = lines
        for i, line in enumerate(lines, 1):
            if line.strip() and len(line) <= 400:
                for cat, rx in RX.items():
                    if rx.search(line):
                        by_cat[cat].append((rel, i))
    rnd = random.Random(args.seed)
    for cat in sorted(by_cat):
        for rel, i in sorted(rnd.sample(by_cat[cat], min(args.per_category, len(by_cat[cat])))):
            print(f"### {cat} {rel}:{i}  (of {len(by_cat[cat])})")
            lines = texts[rel]
            for j in range(max(1, i - 3), min(len(lines), i + 2) + 1):
                print((">" if j == i else " ") + f"{j:5d} " + lines[j - 1][:160])


if __name__ == "__main__":
    main()
