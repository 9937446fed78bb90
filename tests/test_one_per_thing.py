"""One finding per thing: a decorator stack is one kernel, one library finding per file, never two
findings of one category on a line. Further places are kept in the finding's `occurrences`."""
import json

from conftest import run_cli


def scan(tmp_path, *args):
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", *args, cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def rows(report):
    return [(f["path"], f["line"], f["column"], f["rule"], f["message"], f.get("occurrences"))
            for f in report["findings"]]


KERNEL = '''import triton
import triton.language as tl


@triton.autotune(configs=[], key=["n"])
@triton.jit
@triton.heuristics({"B": lambda a: 1})
def add(x_ptr, n):
    pass


@triton.jit
def other(x_ptr):
    pass
'''


def test_decorator_stack_is_one_kernel_and_imports_one_library(tmp_path):
    (tmp_path / "kern.py").write_text(KERNEL)
    assert rows(scan(tmp_path)) == [
        ("kern.py", 1, 1, "TRN288", "Triton: `triton`", [{"line": 2, "column": 1, "rule": "TRN288"}]),
        ("kern.py", 5, 2, "TRN301", "Triton kernel (@triton.jit / @triton.autotune): `triton.autotune`",
         [{"line": 6, "column": 2, "rule": "TRN301"}, {"line": 7, "column": 2, "rule": "TRN301"}]),
        # a second kernel is a second thing
        ("kern.py", 12, 2, "TRN301", "Triton kernel (@triton.jit / @triton.autotune): `triton.jit`", None),
    ]


def test_one_category_per_line_keeps_the_first(tmp_path):
    (tmp_path / "nt.py").write_text("import torch\n\nx = torch.nested.nested_tensor([a, b], layout=torch.jagged)\n")
    assert rows(scan(tmp_path)) == [
        ("nt.py", 3, 5, "TRN151", "NestedTensor (torch.nested, layout=torch.jagged): `torch.nested`",
         [{"line": 3, "column": 47, "rule": "TRN151"}]),
    ]


def test_kept_fingerprint_is_unchanged(tmp_path):
    (tmp_path / "kern.py").write_text(KERNEL)
    folded = {f["line"]: f["fingerprint"] for f in scan(tmp_path)["findings"]}
    # The same first decorator alone: the kept finding's fingerprint does not depend on the folded ones.
    (tmp_path / "kern.py").write_text(KERNEL.replace("@triton.jit\n@triton.heuristics", "@triton.heuristics")
                                      .replace('@triton.heuristics({"B": lambda a: 1})\n', ""))
    alone = {f["line"]: f["fingerprint"] for f in scan(tmp_path)["findings"]}
    assert folded[5] == alone[5] and folded[1] == alone[1]


def test_separate_statements_stay_separate(tmp_path):
    # Three statements between them: not a run, two edits.
    (tmp_path / "m.py").write_text("import torch\n\na = torch.randn(2).cuda()\nn = 1\nn += 1\nk = n\n"
                                   "b = torch.randn(2).cuda()\n")
    got = [(r[1], r[2], r[3], r[5]) for r in rows(scan(tmp_path))]
    assert got == [(3, 5, "TRN241", None), (7, 5, "TRN241", None)]


def test_suppressed_findings_are_not_folded_into_active_ones(tmp_path):
    (tmp_path / "k.py").write_text("import triton  # trnready: ignore[TRN288]\nimport triton.language as tl\n")
    got = [(f["line"], f["rule"], f["suppressed"], f.get("occurrences"))
           for f in scan(tmp_path)["findings"] if f["rule"] == "TRN288"]
    assert got == [(1, "TRN288", True, None), (2, "TRN288", False, None)]


def test_notebook_cells_fold_within_a_cell(tmp_path):
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                     "source": ["import triton\n", "import triton.language as tl\n"]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "k.ipynb").write_text(json.dumps(nb))
    got = [(f["cell"], f["line"], f["column"], f["rule"], f.get("occurrences")) for f in scan(tmp_path)["findings"]]
    # (a folded place in a notebook carries its line in the .ipynb text too: this one is written on one line)
    assert got == [(0, 1, 1, "TRN288", [{"line": 2, "column": 1, "rule": "TRN288", "file_line": 1}])]


XLA = '''import torch_xla.core.xla_model as xm


def step(model):
    model.to(xm.xla_device())
    xm.mark_step()
'''


def test_uses_of_a_library_fold_into_its_import(tmp_path):
    """One finding per library per file: the uses of the library its import was reported for are places of
    that one finding."""
    (tmp_path / "xla_step.py").write_text(XLA)
    got = [(f["line"], f["rule"], f.get("occurrences")) for f in scan(tmp_path)["findings"]]
    assert got == [(1, "TRN221", [{"line": 5, "column": 14, "rule": "TRN221"},
                                  {"line": 6, "column": 5, "rule": "TRN221"}])]


def test_uses_stay_when_the_import_is_suppressed_or_another_rule(tmp_path):
    """Look-alikes: a suppressed import does not swallow the uses (they stand on their own), and a use of
    another rule in the same file is another thing."""
    (tmp_path / "xla_step.py").write_text(XLA.replace("as xm\n", "as xm  # trnready: ignore[TRN221] TPU leg\n", 1)
                                     + "\nimport torch\ntorch.cuda.synchronize()\nstep(None)\n")
    got = [(f["line"], f["rule"], f["suppressed"], f.get("occurrences")) for f in scan(tmp_path)["findings"]]
    # Lines 5 and 6 are one run of neighbouring statements (one edit), still apart from the suppressed import.
    assert got == [(1, "TRN221", True, None), (5, "TRN221", False, [{"line": 6, "column": 5, "rule": "TRN221"}]),
                   (9, "TRN243", False, None)]


DEEPSPEED = """import deepspeed


def setup(parser):
    deepspeed.init_distributed()
    return deepspeed.add_config_arguments(parser)


def build(args, model):
    engine, _, _, _ = deepspeed.initialize(args=args, model=model)
    return engine
"""


def test_uses_of_a_library_naming_one_import_are_one_finding(tmp_path):
    """`import deepspeed` itself is no finding, but each use lists it among its places: uses in two functions
    naming that one import line are one library to drop in the file."""
    (tmp_path / "train.py").write_text(DEEPSPEED)
    got = [(f["line"], f["rule"], f.get("occurrences")) for f in scan(tmp_path)["findings"]]
    # (deepspeed.init_distributed() without a backend also starts NCCL: a distributed-backend item of its own)
    assert got == [(5, "TRN274", None), (5, "TRN287", [{"line": 1, "column": 1, "rule": "TRN287"},
                                  {"line": 6, "column": 12, "rule": "TRN287"},
                                  {"line": 10, "column": 23, "rule": "TRN287"}])]


SEEDS = """import torch

g = torch.Generator()
seed = 0xABEDABE7
g.manual_seed(seed)
first = torch.randn(4, generator=g)
mean = first.mean()
std = first.std()
print(mean, std)
torch.save(first, "first.pt")
g.manual_seed(seed)
second = torch.randn(4, generator=g)


def reseed(gen):
    gen.manual_seed(0xABEDABE8)


reseed(g)
"""


def test_calls_reading_one_written_value_are_one_finding(tmp_path):
    """Two seeds read from the one assignment that writes the too-large value are one value to rewrite; a
    value written in the call itself is another."""
    (tmp_path / "seeds.py").write_text(SEEDS)
    got = [(f["line"], f["rule"], f.get("occurrences")) for f in scan(tmp_path)["findings"]]
    assert got == [(5, "TRN131", [{"line": 4, "column": 8, "rule": "TRN131"},
                                  {"line": 11, "column": 1, "rule": "TRN131"}]),
                   (16, "TRN131", None)]


LIGER = """base_model: meta-llama/Llama-3.2-3B
plugins:
  - axolotl.integrations.liger.LigerPlugin
liger_rms_norm: true
liger_glu_activation: true
micro_batch_size: 2
fp16: true
"""


def test_one_finding_per_rule_per_training_config(tmp_path):
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "qlora.yaml").write_text(LIGER)
    got = [(r[1], r[2], r[3], r[5]) for r in rows(scan(tmp_path))]
    assert got == [
        (4, 17, "TRN292", [{"line": 5, "column": 23, "rule": "TRN292"}]),  # one plugin, two switches
        (7, 7, "TRN254", None),  # another rule: its own item
    ]


PICK = '''import torch


def pick(use_gpu):
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
        device = torch.device("cuda")
    elif torch.backends.mps.is_available():
        device = torch.device("mps")
    else:
        device = torch.device("cpu")
    if not torch.cuda.is_available():
        other = "cpu"
    else:
        other = torch.device("cuda")
    if use_gpu:
        device = torch.device("cuda")
    if torch.cuda.is_available():
        dev = torch.device("cuda")
        backend = "nccl"
    else:
        dev, backend = torch.device("cpu"), "gloo"
    torch.distributed.init_process_group(backend=backend)
    if use_gpu:
        torch.distributed.init_process_group(backend="nccl")
    return device, other, dev
'''


def test_a_branch_folds_into_the_reported_check_above_it(tmp_path):
    (tmp_path / "pick.py").write_text(PICK)
    assert rows(scan(tmp_path)) == [
        # the check is the device pick; the device string of the arm it never takes on Neuron is guarded
        # (neuron-guarded) and, being the device value the pick assigns, listed as a place of the check (lines 7,
        # 15); the guarded empty_cache() of that arm is not
        ("pick.py", 5, 8, "TRN243", "torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`",
         [{"line": 7, "column": 31, "rule": "TRN242"}]),
        ("pick.py", 12, 12, "TRN243", "torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`",
         [{"line": 15, "column": 30, "rule": "TRN242"}]),
        # look-alike: a branch under a test that carries no finding is a pick of its own
        ("pick.py", 17, 31, "TRN242", '"cuda" device string: `cuda`', None),
        # the backend picked with the device is another category: an item of its own
        ("pick.py", 18, 8, "TRN243", "torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`",
         [{"line": 19, "column": 28, "rule": "TRN242"}]),
        # (reported at the literal it comes from; the call's `backend=backend` is its place)
        # (the parallel assignment of the else arm binds `backend` to "gloo": session 35)
        ("pick.py", 20, 19, "TRN271", "Distributed process group on NCCL: `torch.distributed.init_process_group` "
         "(`backend` may be 'nccl' or 'gloo') (the value is passed to `torch.distributed.init_process_group` later)",
         [{"line": 23, "column": 50, "rule": "TRN271"}]),
        # look-alike: a backend under a user flag
        ("pick.py", 25, 9, "TRN271", "Distributed process group on NCCL: `torch.distributed.init_process_group`",
         None),
    ]


def test_repository_rule_is_anchored_at_a_use_that_counts(tmp_path):
    # The first use by path sits in a test skipped without CUDA (guarded); the project's one finding of the
    # repository-scoped rule is anchored at the library's own use instead of disappearing with the guarded one.
    (tmp_path / "a_tests").mkdir()
    (tmp_path / "a_tests" / "test_x.py").write_text(
        "import pytest\nimport torch\n\n\n@pytest.mark.skipif(not torch.cuda.is_available(), reason='gpu')\n"
        "def test_compiled():\n    torch.compile(lambda x: x)\n")
    (tmp_path / "lib.py").write_text("import torch\n\n\ndef build(m):\n    return torch.compile(m)\n")
    found = [(f["path"], f["line"], f["rule"], f["guarded"]) for f in scan(tmp_path, "--show-guarded")["findings"]
             if f["rule"] == "TRN701"]
    assert found == [("lib.py", 5, "TRN701", False)]


CI_MATRIX = """version: 2.1
workflows:
  build:
    jobs:
      - binary_linux_conda:
          conda_docker_image: pytorch/conda-builder:cuda118
          name: py310_cu118
      - binary_linux_conda:
          conda_docker_image: pytorch/conda-builder:cuda121
          name: py310_cu121
      - binary_linux_conda:
          conda_docker_image: pytorch/conda-builder:cuda118
          name: py311_cu118
"""


def test_one_finding_per_rule_and_value_in_a_ci_file(tmp_path):
    (tmp_path / ".circleci").mkdir()
    (tmp_path / ".circleci" / "config.yml").write_text(CI_MATRIX)
    got = [(r[1], r[2], r[3], r[4].rsplit(": ", 1)[-1], r[5]) for r in rows(scan(tmp_path))]
    assert got == [
        # the same CUDA image in two entries of the build matrix is one item
        (6, 31, "TRN603", "`pytorch/conda-builder:cuda118`", [{"line": 12, "column": 31, "rule": "TRN603"}]),
        (9, 31, "TRN603", "`pytorch/conda-builder:cuda121`", None),  # another image: its own item
    ]


MASKS = '''import torch


def select(x, y, z):
    mask = x > 0
    a = x[mask]
    b = y[mask]
    keep = z.isfinite()
    c = z[keep]
    return a, b, c


def again(x):
    mask = x > 0
    return x[mask]
'''


def test_one_finding_per_boolean_mask_per_function(tmp_path):
    (tmp_path / "masks.py").write_text(MASKS)
    got = [(r[1], r[2], r[3], r[5]) for r in rows(scan(tmp_path))]
    assert got == [
        (6, 9, "TRN104", [{"line": 7, "column": 9, "rule": "TRN104"}]),  # y[mask]: the same mask again
        (9, 9, "TRN104", None),  # another mask: its own item
        (15, 12, "TRN104", None),  # the same name in another function: its own item
    ]


MASK_SOURCES = '''import torch


def keep_boxes(boxes, scores, thresh):
    keep = torch.nonzero(scores > thresh).squeeze(1)
    return boxes[keep]


def shifted(logits, labels, attention_mask):
    shift_mask = attention_mask[..., 1:]
    flat_logits = logits[..., :-1, :][shift_mask != 0]
    flat_labels = labels[..., 1:][shift_mask != 0]
    return flat_logits, flat_labels


def two_masks(x, y):
    a = x[x > 0]
    b = y[y > 0]
    return a, b


def rebound(x, y):
    keep = x.nonzero()
    return y[keep.float() > 0]
'''


def test_one_finding_per_mask_written_in_the_index_or_bound_by_a_reported_call(tmp_path):
    (tmp_path / "sources.py").write_text(MASK_SOURCES)
    got = [(r[1], r[2], r[3], r[5]) for r in rows(scan(tmp_path))]
    assert got == [
        # the indices `torch.nonzero` returned: the data-dependent thing is that call, reported once
        (5, 12, "TRN104", [{"line": 6, "column": 12, "rule": "TRN104"}]),
        # the same comparison written in two indices of one function is one mask
        (11, 19, "TRN104", [{"line": 12, "column": 19, "rule": "TRN104"}]),
        (17, 9, "TRN104", None),  # `x > 0` and `y > 0`: two masks
        (18, 9, "TRN104", None),
        (23, 12, "TRN104", None),  # an index computed from the bound name is another mask
        (24, 12, "TRN104", None),
    ]


SPARSE = '''import torch


def laplacian(verts, edges):
    A = torch.sparse_coo_tensor(edges, torch.ones(edges.shape[1]), (4, 4))
    deg = torch.sparse.sum(A, dim=1).to_dense()
    L = torch.sparse_coo_tensor(edges, -torch.ones(edges.shape[1]), (4, 4))
    return L, deg


def other(edges):
    return torch.sparse_coo_tensor(edges, torch.ones(edges.shape[1]), (4, 4))
'''


def test_one_sparse_finding_per_rule_per_function(tmp_path):
    (tmp_path / "sp.py").write_text(SPARSE)
    got = [(r[1], r[2], r[3], r[5]) for r in rows(scan(tmp_path))]
    assert got == [
        # the function's sparse algebra is rewritten as a whole
        (5, 9, "TRN141", [{"line": 6, "column": 11, "rule": "TRN141"}, {"line": 7, "column": 9, "rule": "TRN141"}]),
        (12, 12, "TRN141", None),  # another function: its own item
    ]


FOLDS = '''import torch
from torch.nn.attention.flex_attention import create_block_mask, flex_attention, or_masks


def fit(x):
    x = x.to(torch.float64)
    y = x.to(torch.float64) * 2
    return y


def other_fit(x):
    return x.to(torch.float64)


def attend(q, k, v, mask_mod):
    block = create_block_mask(mask_mod, 1, 1, 8, 8)
    return flex_attention(q, k, v, block_mask=block)


def masks(a, b):
    return or_masks(a, b)


def pad(values):
    nt = torch.nested.nested_tensor(values, layout=torch.jagged)
    return torch.nested.to_padded_tensor(nt, 0.0)


def pad_again(values):
    return torch.nested.nested_tensor(values, layout=torch.jagged)
'''


def test_one_finding_per_rule_per_function_for_more_categories(tmp_path):
    (tmp_path / "folds.py").write_text(FOLDS)
    got = [(r[1], r[3], [o["line"] for o in r[5] or ()]) for r in rows(scan(tmp_path))]
    assert got == [
        # FlexAttention is one dependency of the file: its import is the finding, every use a place of it
        (2, "TRN211", [16, 17, 21]),
        (6, "TRN121", [7]),  # one function's double-precision math is one decision
        (12, "TRN121", []),  # look-alike: another function is its own item
        (25, "TRN151", [25, 26]),  # the nested tensor and its padding: one replacement
        (30, "TRN151", [30]),  # look-alike: another function (torch.nested twice on its line)
    ]


RUNS = '''import torch


def feed(a, b, c, d, e):
    a = a.cuda()
    b = b.cuda()
    n = len(a)
    m = n + 1
    c = c.cuda()
    k = 0
    k += 1
    j = k
    d = d.cuda()
    if n:
        e = e.cuda()
    return a, b, c, d, e
'''


def test_a_run_over_neighbouring_statements_is_one_edit(tmp_path):
    (tmp_path / "feed.py").write_text(RUNS)
    assert [(line, col, rule, occ) for _, line, col, rule, _, occ in rows(scan(tmp_path))] == [
        # lines 6 and 9 join the run of line 5 (at most two statements between two of them)
        (5, 9, "TRN241", [{"line": 6, "column": 9, "rule": "TRN241"}, {"line": 9, "column": 9, "rule": "TRN241"}]),
        # three statements after line 9: a new run
        (13, 9, "TRN241", None),
        # another block (the body of the `if`), so another item, however close
        (15, 13, "TRN241", None),
    ]


ADJACENT_DEFS = '''import torch


@torch.compile(mode="max-autotune")
def f(x):
    return x


@torch.compile(mode="max-autotune")
def g(x):
    return x
'''


def test_neighbouring_definitions_never_join_a_run(tmp_path):
    (tmp_path / "defs.py").write_text(ADJACENT_DEFS)
    assert [(f[1], f[3]) for f in rows(scan(tmp_path)) if f[3] == "TRN112"] == [(4, "TRN112"), (9, "TRN112")]


FP8 = '''import torch


def quantize_weight(w):
    amax = w.abs().max()
    scale = torch.finfo(torch.float8_e4m3fn).max / amax
    w = w * scale
    w = w.clamp(-448, 448)
    q = w.to(torch.float8_e4m3fn)
    return q, scale


def dequantize(q, scale):
    x = q.to(torch.float64).cuda()
    return x / scale
'''


def test_one_fp8_recipe_per_function_and_other_categories_on_its_lines_stay_apart(tmp_path):
    (tmp_path / "fp8.py").write_text(FP8)
    got = [(r[1], r[3], [o["line"] for o in r[5] or ()]) for r in rows(scan(tmp_path))]
    # the finfo limit, the scale and the cast of one function are one fp8 change (lines 6 and 9); the float64
    # cast and the .cuda() move on line 14 are other categories, each its own finding
    assert got == [(6, "TRN202", [9]), (14, "TRN241", []), (14, "TRN121", [])]


MASK_FORMS = '''import torch


def mul(row, col, idx):
    valid_mask = idx[1:] == idx[:-1]
    valid_idx = valid_mask.nonzero().view(-1)
    return row[valid_mask], col[valid_idx]


def remove_diag(row, col, counts):
    inv_mask = row != col
    new_row = row[inv_mask]
    mask = ~inv_mask
    counts[row[mask]] -= 1
    return new_row, counts


def bound(x, y):
    m = x > 0
    keep = m.nonzero()
    return y[keep], x[m], x[~m]
'''


def test_a_mask_its_indices_and_its_negation_are_one_mask(tmp_path):
    (tmp_path / "forms.py").write_text(MASK_FORMS)
    got = [(r[1], r[2], r[3], r[5]) for r in rows(scan(tmp_path))]
    assert got == [
        # the mask's nonzero indices and the mask itself index the same places: one mask to replace
        (6, 17, "TRN104", [{"line": 7, "column": 12, "rule": "TRN104"}]),
        # `mask = ~inv_mask` selects the other places of the same mask
        (12, 15, "TRN104", [{"line": 14, "column": 12, "rule": "TRN104"}]),
        # the indices bound to a name, and the mask read directly or negated in the index
        (20, 12, "TRN104", [{"line": 21, "column": 21, "rule": "TRN104"},
                            {"line": 21, "column": 27, "rule": "TRN104"}]),
    ]


def test_a_name_bound_twice_is_no_alias_of_a_mask(tmp_path):
    (tmp_path / "rebound.py").write_text('''import torch


def two(x, y, z):
    valid = x > 0
    mask = ~valid
    a = x[valid]
    mask = y > 0
    b = z[mask]
    return a, b
''')
    got = [(r[1], r[2], r[3], r[5]) for r in rows(scan(tmp_path))]
    # `mask` is bound twice: its second value is another mask, and `z[mask]` stays its own item
    assert got == [(7, 9, "TRN104", None), (9, 9, "TRN104", None)]


def test_a_mask_indexing_a_subscript_by_key_is_one_mask(tmp_path):
    # schnetpack's MD neighbour list (fresh36): `nb[properties.idx_i][keep]` begins where its inner
    # `nb[properties.idx_i]` begins; the mask is the outer index, so the three filters are one mask
    (tmp_path / "neighbors.py").write_text('''import torch
from schnetpack import properties


class NeighborList:
    def filter(self, nb, pos):
        keep = torch.linalg.norm(pos, dim=1) <= self.cutoff
        nb[properties.idx_i] = nb[properties.idx_i][keep]
        nb[properties.idx_j] = nb[properties.idx_j][keep]
        nb[properties.offsets] = nb[properties.offsets][
            keep, :
        ]
        return nb


def run(nb, pos):
    return NeighborList().filter(nb, pos)
''')
    got = [(r[1], r[2], r[3], r[5]) for r in rows(scan(tmp_path))]
    assert got == [(8, 32, "TRN104", [{"line": 9, "column": 32, "rule": "TRN104"},
                                      {"line": 10, "column": 34, "rule": "TRN104", "end_line": 12}])]


def test_a_mask_s_nonzero_inside_a_method_chain_is_the_same_mask(tmp_path):
    # pytorch_sparse's to_symmetric (fresh37): `mask.nonzero().flatten()` begins where its inner `mask.nonzero()`
    # begins; the outer call names no mask, the inner one does, so it folds with `perm[mask]`
    (tmp_path / "symmetric.py").write_text('''import torch


def to_symmetric(idx, perm, value):
    mask = idx[1:] > idx[:-1]
    kept = perm[mask]
    ptr = mask.nonzero().flatten()
    return kept, torch.cat([value, value])[ptr]
''')
    got = [(r[1], r[2], r[3], r[5]) for r in rows(scan(tmp_path))]
    assert got == [(6, 12, "TRN104", [{"line": 7, "column": 11, "rule": "TRN104"}])]


MASK_VIEWS = '''import torch


def intersect(hits, outs, ray_start, sampled_masks):
    sampled_masks = sampled_masks.bool()
    hits = hits[sampled_masks]
    outs = outs[sampled_masks.expand_as(outs)]
    ray_start = ray_start[sampled_masks.unsqueeze(-1).expand_as(ray_start)]
    return hits, outs, ray_start


def precompute(self_feats, self_points, keep):
    feats = self_feats[keep.bool()]
    points = self_points[keep.bool()]
    return feats, points


def regularise(eikonal, feat, sampled_idx):
    a = eikonal[sampled_idx.ne(-1)]
    b = feat[sampled_idx.ne(-1)]
    c = feat[sampled_idx.ne(0)]
    return a, b, c


def as_indices(x, y, keep):
    return x[keep], y[keep.long()]
'''


def test_views_casts_and_method_comparisons_of_one_mask_are_one_mask(tmp_path):
    # NSVF (fresh64): `outs[sampled_masks.expand_as(outs)]` after `hits[sampled_masks]`, `self.points[self.keep.bool()]`
    # after `self.feats[self.keep.bool()]`, two `[sampled_idx.ne(-1)]`: one mask each. `ne(0)` is another
    # comparison, and `keep.long()` makes indices of it, not a view
    (tmp_path / "views.py").write_text(MASK_VIEWS)
    got = [(r[1], r[2], r[3], [o["line"] for o in r[5] or ()]) for r in rows(scan(tmp_path))]
    assert got == [
        (6, 12, "TRN104", [7, 8]),
        (13, 13, "TRN104", [14]),
        (19, 9, "TRN104", [20]),
        (21, 9, "TRN104", []),
        (26, 12, "TRN104", []),
    ]
