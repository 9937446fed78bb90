"""One finding per thing, the folds that join places far apart in one file (trnready/postprocess_folds.py): the
same `NAME=value` prefix on many lines of a shell script, one cuda-amp API used through a file (and the two
decorators of one autograd Function), the same statement or call in alternative arms of one branch, and the uses
of an alias whose assignment is reported. Each fold keeps the other places as occurrences; each look-alike (another
value, rule, API, operand, statement, binding, or a block an imported flag may guard) stays its own finding."""
import json

from conftest import run_cli


def scan(tmp_path, files):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["column"], f["rule"], f["message"],
             [(o["line"], o["column"], o["rule"]) for o in f.get("occurrences", ())])
            for f in json.loads(proc.stdout)["findings"]]


VISIBLE = "CUDA_VISIBLE_DEVICES in a launcher, container or environment file: `CUDA_VISIBLE_DEVICES`"
BLOCKING = "CUDA allocator or launch environment variable: `CUDA_LAUNCH_BLOCKING`"

RUN_SH = '''#! /bin/bash
CUDA_VISIBLE_DEVICES=2 python main.py --workspace a
CUDA_VISIBLE_DEVICES=2 python main.py --workspace b

CUDA_VISIBLE_DEVICES="2" python main.py --workspace c
CUDA_VISIBLE_DEVICES=3 python main.py --workspace d
export CUDA_VISIBLE_DEVICES=$GPU_ID
CUDA_VISIBLE_DEVICES=$GPU_ID python main.py --workspace e
CUDA_LAUNCH_BLOCKING=1 CUDA_VISIBLE_DEVICES=2 python main.py --workspace f
CUDA_LAUNCH_BLOCKING=1 python main.py --workspace g
'''


def test_one_assignment_prefix_per_script_and_value(tmp_path):
    assert scan(tmp_path, {"run.sh": RUN_SH}) == [
        # `=2` on four command lines (quoted once, and after another variable once): one item
        ("run.sh", 2, 1, "TRN605", VISIBLE, [(3, 1, "TRN605"), (5, 1, "TRN605"), (9, 24, "TRN605")]),
        # another value is another device choice
        ("run.sh", 6, 1, "TRN605", VISIBLE, []),
        # the same variable reference, exported then prefixed
        ("run.sh", 7, 8, "TRN605", VISIBLE, [(8, 1, "TRN605")]),
        # another rule on the same lines stays its own item (with its own repeat)
        ("run.sh", 9, 1, "TRN246", BLOCKING, [(10, 1, "TRN246")]),
    ]


AMP = "torch.cuda.amp (autocast, GradScaler, custom_fwd / custom_bwd): `torch.cuda.amp`"

COUNT = "torch.cuda device, memory, stream or RNG API: `torch.cuda.device_count`"
INTERP = "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate`"
CUDA_STRING = '"cuda" device string: `cuda`'
CURRENT = "torch.cuda device, memory, stream or RNG API: `torch.cuda.current_device`"

EVALUATORS = '''import torch
import torch.nn.functional as F


def build(kind, rank, cfg):
    if kind == "a":
        assert torch.cuda.device_count() > rank, "one machine"
        return cfg.a
    if kind == "b":
        assert torch.cuda.device_count() > rank, "one machine"
        return cfg.b
    if kind == "c":
        if cfg.sem:
            assert torch.cuda.device_count() > rank, "one machine"
        if cfg.ins:
            assert torch.cuda.device_count() > rank, "one machine"
    return None


def encode(img, as_latent):
    if as_latent:
        z = F.interpolate(img, (32, 32), mode="bilinear", align_corners=False) * 2 - 1
    else:
        big = F.interpolate(img, (256, 256), mode="bilinear", align_corners=False)
        z = big.mean()
    return z


def look_alikes(img, mask, as_latent, log):
    if as_latent:
        a = F.interpolate(img, (32, 32), mode="bilinear")
    else:
        b = F.interpolate(mask, (32, 32), mode="bilinear")
    if as_latent:
        c = F.interpolate(img, scale_factor=2, mode="bilinear")
    else:
        d = F.interpolate(img, scale_factor=2, mode="bicubic")
    if as_latent:
        x = torch.zeros(1, device="cuda")
    else:
        y = torch.ones(2, device="cuda")
    if mask is None:
        log.info(F.interpolate(img, (8, 8), mode="bilinear"))
        log.info(a)
        log.info(b)
        log.info(c)
        log.info(F.interpolate(img, (8, 8), mode="bilinear"))
    return a, b, c, d, x, y


def barrier(grp, verbose, dist):
    if grp is not None:
        if verbose:
            print(f"barrier on {torch.cuda.current_device()}")
        dist.barrier(group=grp, device_ids=[torch.cuda.current_device()])
'''


def test_same_statement_in_alternative_arms_is_one_finding(tmp_path):
    assert scan(tmp_path, {"evaluators.py": EVALUATORS}) == [
        # one assert in the arms of a dispatch written as sibling `if`s, two of them nested
        ("evaluators.py", 7, 16, "TRN243", COUNT, [(10, 16, "TRN243"), (14, 20, "TRN243"), (16, 20, "TRN243")]),
        # one bilinear resize of one input in the `if` and the `else`, to two sizes
        ("evaluators.py", 22, 13, "TRN191", INTERP, [(24, 15, "TRN191")]),
        # another operand, another mode: apart
        ("evaluators.py", 31, 13, "TRN191", INTERP, []),
        ("evaluators.py", 33, 13, "TRN191", INTERP, []),
        ("evaluators.py", 35, 13, "TRN191", INTERP, []),
        ("evaluators.py", 37, 13, "TRN191", INTERP, []),
        # different statements in two arms
        ("evaluators.py", 39, 35, "TRN242", CUDA_STRING, []),
        ("evaluators.py", 41, 34, "TRN242", CUDA_STRING, []),
        # the same call in two statements of a sibling `if`, and twice in one arm
        ("evaluators.py", 43, 18, "TRN191", INTERP, []),
        ("evaluators.py", 47, 18, "TRN191", INTERP, []),
        # one call in an arm and in an `if` nested in it: both run, two device picks
        ("evaluators.py", 54, 33, "TRN243", CURRENT, []),
        ("evaluators.py", 55, 45, "TRN243", CURRENT, []),
    ]


FLOAT = "torch.cuda device, memory, stream or RNG API: `torch.cuda.FloatTensor`"
HALF = "torch.cuda device, memory, stream or RNG API: `torch.cuda.HalfTensor`"
DOUBLE = "float64 or complex128 dtype: `torch.cuda.DoubleTensor`"

UNIT = '''import torch

type_tensor = torch.cuda.FloatTensor
ref_tensor = torch.cuda.DoubleTensor


def run(inp, grad, weight):
    a = type_tensor(inp)
    w = type_tensor(weight)
    return a, w


out_t = type_tensor([1.0])
ref = ref_tensor(out_t)


def direct(x):
    return torch.cuda.FloatTensor(x)


def shadow(inp):
    type_tensor = torch.cuda.HalfTensor
    return type_tensor(inp)
'''


def test_uses_of_a_reported_alias_are_its_places(tmp_path):
    assert scan(tmp_path, {"unit.py": UNIT}) == [
        # `type_tensor = torch.cuda.FloatTensor`, used in a function and at module level
        ("unit.py", 3, 15, "TRN243", FLOAT, [(8, 9, "TRN243"), (9, 9, "TRN243"), (13, 9, "TRN243")]),
        ("unit.py", 4, 14, "TRN121", DOUBLE, [(14, 7, "TRN121")]),
        # the API named directly in another function: its own item
        ("unit.py", 18, 12, "TRN243", FLOAT, []),
        # a function binding the name to another API: its uses are that alias's places
        ("unit.py", 22, 19, "TRN243", HALF, [(23, 12, "TRN243")]),
    ]


TRAIN = '''import contextlib

import torch
from torch.cuda.amp import autocast, GradScaler


def train(model, batches, amp):
    scaler = GradScaler()
    amp_cm = autocast if amp else contextlib.nullcontext
    for x in batches:
        with amp_cm():
            loss = model(x)
        scaler.scale(loss).backward()


def evaluate(model, x, amp):
    with autocast(enabled=amp):
        return model(x)


def rebinding(model, x, amp):
    amp_cm = autocast if amp else contextlib.nullcontext
    with amp_cm():
        model(x)
    amp_cm = contextlib.nullcontext
    with amp_cm():
        return model(x)
'''


def test_uses_of_an_alias_picked_by_a_condition_are_its_places(tmp_path):
    assert [(line, col, rule, occ) for _, line, col, rule, _, occ in scan(tmp_path, {"train.py": TRAIN})] == [
        # the scaler and the conditional alias are one item; the alias's call in the loop is a place of it
        (8, 14, "TRN251", [(4, 1, "TRN251"), (9, 14, "TRN251"), (11, 14, "TRN251")]),
        # autocast called directly in another function stays its own item
        (17, 10, "TRN251", [(4, 1, "TRN251")]),
        # a name bound twice is no alias of one API: its call is not folded into the first binding
        (22, 14, "TRN251", [(4, 1, "TRN251")]),
    ]


STATS = '''import torch

_counter_dtype = torch.float64


class Collector:
    _counter_dtype = torch.float16

    def update(self, n):
        self.total = torch.zeros([n], dtype=_counter_dtype)

    def shadow(self, n):
        _counter_dtype = torch.double
        return torch.zeros([n], dtype=_counter_dtype)


def sync(n, device):
    return torch.zeros([n], dtype=_counter_dtype, device=device)
'''


def test_uses_of_a_module_alias_in_methods_are_its_places(tmp_path):
    # a method reads the module's name, not the class body's (`_counter_dtype = torch.float16` there binds a class
    # attribute): the use at line 10 joins the module assignment; a method binding the name itself stays apart
    assert scan(tmp_path, {"stats.py": STATS}) == [
        ("stats.py", 3, 18, "TRN121", "float64 or complex128 dtype: `torch.float64`", [(10, 45, "TRN121"),
                                                                                       (18, 35, "TRN121")]),
        ("stats.py", 13, 26, "TRN121", "float64 or complex128 dtype: `torch.double`", [(14, 39, "TRN121")]),
    ]


HELPERS = '''import torch


def step(state, scaler, log):
    OptState = torch.cuda.amp.grad_scaler.OptState
    if state is OptState.READY:
        return scaler
    log.info(state)
    log.info(scaler)
    log.info(scaler.scale)
    state = OptState.UNSCALED
    return state
'''


def test_alias_of_one_function(tmp_path):
    # the module binds no alias; the function does, and its later use is a place of that finding
    assert scan(tmp_path, {"helpers.py": HELPERS}) == [
        ("helpers.py", 5, 16, "TRN251", AMP, [(11, 13, "TRN251")]),
    ]


MOVE = ".cuda() moves a tensor or module to a GPU: `cuda`"
CURRENT_DEVICE = "torch.cuda device, memory, stream or RNG API: `torch.cuda.current_device`"

PLACE = '''import torch


def place(x, y, flag):
    if flag:
        a = x.cuda()
        b = y.cuda()
    else:
        a = x.cuda()
        b = y.cuda()
    return a, b


def picks(flag, log):
    if flag:
        first = torch.zeros(3, device=torch.cuda.current_device())
    else:
        second = torch.ones(4, device=torch.cuda.current_device())
    if flag:
        noise = torch.randn(2, 32).cuda()
    else:
        grads = torch.randn(2, 8).cuda()
    return first, second, noise, grads
'''


def test_a_run_follows_its_first_statement_into_another_arm(tmp_path):
    assert scan(tmp_path, {"place.py": PLACE}) == [
        # `a` of the else folds into the `if`'s item, and `b` after it follows (no item of its own at line 10)
        ("place.py", 6, 13, "TRN241", MOVE, [(7, 13, "TRN241"), (9, 13, "TRN241"), (10, 13, "TRN241")]),
        # a call with no operand, or a literal one, in two arms: two tensors, two items
        ("place.py", 16, 39, "TRN243", CURRENT_DEVICE, []),
        ("place.py", 18, 39, "TRN243", CURRENT_DEVICE, []),
        ("place.py", 20, 17, "TRN241", MOVE, []),
        ("place.py", 22, 17, "TRN241", MOVE, []),
    ]


def test_native_library_family_of_a_header_or_link_flag():
    from trnready.catalogue import load_catalogue
    from trnready.postprocess import library_family

    families = load_catalogue().context_values["native-library-families"]
    assert library_family("cudnn_frontend.h", families) == library_family("cudnn.h", families) == "cudnn"
    assert library_family("cublasLt.h", families) == library_family("-lcublas", families) == "cublas"
    assert library_family("CUDA::cublas_static", families) == "cublas"
    assert library_family("nvtx3/nvToolsExt.h", families) == "nvtoolsext"
    assert library_family("nccl.h", families) == "nccl" and library_family("-lnvidia-ml", families) == "nvidia-ml"
    assert library_family("torch/extension.h", families) == ""


def test_the_cuda_toolkit_packages_of_a_conda_environment_are_one_finding(tmp_path):
    # video_features' conda_env.yml (fresh61): cuda-cudart, cuda-libraries, cuda-nvrtc and cuda-runtime are one
    # toolkit to drop (three duplicate verdicts); the CUDA build of PyTorch (`pytorch-cuda`) is another item.
    # Since session 57 the runtime libraries are TRN510 (cuda-library), as their pip wheels are
    got = scan(tmp_path, {"environment.yml": "name: feats\nchannels:\n  - pytorch\ndependencies:\n"
                          "  - cuda-cudart=12.1.105=0\n  - cuda-libraries=12.1.0=0\n  - cuda-nvrtc=12.1.105=0\n"
                          "  - cuda-runtime=12.1.0=0\n  - pytorch-cuda=12.1=ha16c6d3_5\n"})
    assert [(p, ln, r, occ) for p, ln, _c, r, _m, occ in got if r in ("TRN505", "TRN510")] == [
        ("environment.yml", 5, "TRN510", [(6, 5, "TRN510"), (7, 5, "TRN510"), (8, 5, "TRN510")]),
        ("environment.yml", 9, "TRN505", []),
    ]
