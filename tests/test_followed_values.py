"""Values trnready follows inside one file or notebook (docs/values.md), through the real CLI.

Each class has fixtures of its own under tests/fixtures/followed/: `*_hit` files hold code that must be
reported, `*_lookalike` files code that resembles it but must stay clean.
"""
import json

from conftest import FIXTURES, run_cli

FOLLOWED = FIXTURES / "followed"
# reported once per project for any torch.compile, and at every torch.compile that names no backend (TRN114);
# not what these fixtures are about
PROJECT_WIDE = {"TRN701", "TRN114"}


def findings(name):
    proc = run_cli("scan", FOLLOWED / name, "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    assert report["diagnostics"] == []
    return {(f.get("cell"), f["line"], f["column"], f["rule"], f["confidence"], f["message"])
            for f in report["findings"] if f["rule"] not in PROJECT_WIDE}


NCCL = "Distributed process group on NCCL: `torch.distributed.init_process_group`"
MAY_BE = " (`backend` may be 'nccl' or 'gloo')"


def test_notebook_cells_share_one_namespace():
    # cell indices count every cell (markdown too), lines are relative to the cell
    assert findings("cells_hit.ipynb") == {
        (4, 1, 1, "TRN271", "high", NCCL),  # backend = "nccl" in cell 2, dist imported in cell 0
        (5, 3, 10, "TRN243", "high",
         "torch.cuda device, memory, stream or RNG API: `torch.cuda.current_device`"),  # import torch in cell 0
        (5, 4, 5, "TRN161", "high",
         "Forward-mode automatic differentiation: `torch.func.jacfwd`"),  # from functorch import jacfwd, cell 3
    }


def test_notebook_later_cells_rebind_names():
    # backend = "gloo" in a later cell replaces "nccl"; jacfwd is the notebook's own function
    assert findings("cells_lookalike.ipynb") == set()


def test_values_the_file_holds():
    # a value that is one of several possibilities is reported where it is written, the line to change
    other = "torch.compile with a backend other than neuron: `torch.compile`"
    later = " (the value is passed to `{}` later)"
    init = "torch.distributed.init_process_group"
    assert findings("values_hit.py") == {
        (None, 6, 51, "TRN111", "high", other + later.format("torch.compile")),  # os.environ.get(..., "inductor")
        (None, 10, 9, "TRN101", "high", "torch.compile with dynamic=True: `torch.compile`"),  # **options
        # (line 10's TRN111 is three statements after line 6's: one run, an occurrence of that finding)
        (None, 12, 9, "TRN112", "high", "torch.compile mode other than default: `torch.compile`"),  # getattr default
        (None, 17, 14, "TRN271", "medium", NCCL + MAY_BE + later.format(init)),  # if/else: nccl or gloo
        (None, 24, 36, "TRN271", "high", NCCL + later.format(init)),  # os.getenv(..., "nccl") default
        (None, 31, 14, "TRN271", "medium", NCCL + MAY_BE + later.format(init)),  # gloo, then nccl under an if
    }


def test_values_the_file_holds_lookalikes():
    # a gloo default, options without backend/mode/dynamic, an unknown getattr default, a reassignment
    # before the call, and an assignment after it
    assert findings("values_lookalike.py") == set()


MASK = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"


def test_data_dependent_shapes_with_local_evidence():
    assert findings("shapes_hit.py") == {
        (None, 6, 12, "TRN104", "medium", MASK),  # mask = x > 0 (and ~mask on line 7: the same mask, folded here)
        (None, 8, 14, "TRN104", "medium", MASK),  # torch.isfinite(x)
        (None, 10, 15, "TRN104", "medium", MASK),  # dtype=torch.bool
        (None, 11, 12, "TRN104", "medium", MASK),  # a comparison as the index
        (None, 12, 13, "TRN104", "medium", "Operation whose output shape depends on the data: `unique`"),
        (None, 14, 13, "TRN106", "medium",
         "repeat_interleave with a tensor of repeats and no output_size: `repeat_interleave`"),
    }


def test_data_dependent_shape_lookalikes():
    # integer indices, NumPy masks and arrays, pandas .unique(), int repeats, output_size, `in` tests
    assert findings("shapes_lookalike.py") == set()


def test_int64_that_needs_the_full_range():
    assert findings("int64_hit.py") == {
        (None, 6, 1, "TRN131", "medium",
         "Seed that can exceed 2**31: the generator state needs the full int64 range: `torch.manual_seed`"),
        # (line 7, torch.randint above 2**31, is the next statement: an occurrence of line 6's finding)
        (None, 8, 23, "TRN132", "high",
         "Nanosecond timestamp written into a tensor: the value needs the full int64 range: `time.time_ns`"),
    }


def test_int64_lookalikes():
    # small seeds and bounds, token-id tensors, timestamps kept in Python
    assert findings("int64_lookalike.py") == set()


SEED_DRAWS = '''import random
import sys

import torch


class Pipeline:
    def generate(self, seed=-1):
        seed = seed if seed >= 0 else random.randint(0, sys.maxsize)
        seed_g = torch.Generator(device=self.device)
        seed_g.manual_seed(seed)
        return seed_g


def sample(seed=None):
    if seed is None:
        seed = random.randint(0, 2**32 - 1)
    torch.manual_seed(seed)


if __name__ == "__main__":
    Pipeline().generate()
'''

SEED_DRAW_LOOKALIKES = '''import random
import sys

import numpy as np
import torch


def host_only():
    seed = random.randint(0, sys.maxsize)
    random.seed(seed)
    np.random.seed(seed % 2**32)


def small(seed=None):
    if seed is None:
        seed = random.randint(0, 2**31 - 1)
    torch.manual_seed(seed)


def passed_in(seed):
    torch.manual_seed(seed)
'''


def test_a_host_random_draw_above_2_31_handed_to_a_generator(tmp_path):
    (tmp_path / "pipe.py").write_text(SEED_DRAWS)
    report = json.loads(run_cli("scan", tmp_path, "--format", "json", "--no-cache").stdout)
    found = [(f["line"], f["rule"], f["message"], [o["line"] for o in f.get("occurrences") or []])
             for f in report["findings"] if f["category"] == "int64"]
    # the finding stays at the generator call; the draw that sets the range is listed among its places
    assert found == [
        (11, "TRN131", "Seed that can exceed 2**31: the generator state needs the full int64 range: `manual_seed` "
                       "(a host random draw of up to 2**63-1)", [9]),
        (18, "TRN131", "Seed that can exceed 2**31: the generator state needs the full int64 range: "
                       "`torch.manual_seed` (a host random draw of up to 2**32-1)", [17]),
    ]


def test_host_only_seeds_and_draws_within_31_bits_are_not_reported(tmp_path):
    (tmp_path / "seeds.py").write_text(SEED_DRAW_LOOKALIKES)
    report = json.loads(run_cli("scan", tmp_path, "--format", "json", "--no-cache").stdout)
    assert [f for f in report["findings"] if f["category"] == "int64"] == []


def test_an_unpacked_dict_entry_is_a_place_of_the_call_finding():
    # KILT's base_transformer.py: `train_params = dict(..., gpus=args.n_gpu, ...)`, then `pl.Trainer(**train_params)`
    # (blind60): the call keeps the finding and the entry, where the value enters, is its place; an entry written in
    # the call itself adds none
    proc = run_cli("scan", FOLLOWED / "trainer_params_hit.py", "--format", "json", "--no-cache")
    got = [(f["line"], f["column"], f["rule"], [(o["line"], o["column"]) for o in f.get("occurrences", ())])
           for f in json.loads(proc.stdout)["findings"]]
    assert got == [(10, 12, "TRN247", [(7, 14)]), (14, 12, "TRN247", [])]


def test_a_value_drawn_from_a_literal_list_is_any_of_its_elements():
    bilinear = "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate`"
    # (line 11's draw of 'bicubic' or 'nearest' is the same API in the same function: an occurrence of line 10's)
    assert findings("choice_hit.py") == {
        (None, 10, 11, "TRN191", "medium", bilinear + " (`mode` may be 'bilinear' or 'area')"),
    }
    proc = run_cli("scan", FOLLOWED / "choice_hit.py", "--format", "json", "--no-cache")
    assert [o["line"] for o in json.loads(proc.stdout)["findings"][0]["occurrences"]] == [11]
    assert findings("choice_lookalike.py") == set()


def test_a_value_rebound_in_the_arm_of_its_use_is_that_arm_value():
    # Real-ESRGAN-style degradations (HAT, blind62): `mode = random.choice([...])` before a resize, then drawn
    # again inside each arm of `if flip:` before the arm's own resize. Each arm's resize reads its own draw, so the
    # second item sits at line 11 (line 14's draw and both arms' calls are its occurrences), not folded into line 7's.
    bilinear = "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate` (`mode` may be 'bilinear' or 'area')"
    got = findings("choice_arms_hit.py")
    assert {(line, col) for _, line, col, rule, _, msg in got if rule == "TRN191" and msg.startswith(bilinear)} == \
        {(7, 35), (11, 39)}
    proc = run_cli("scan", FOLLOWED / "choice_arms_hit.py", "--format", "json", "--no-cache")
    # (line 8 names the callee of the resize whose `mode=mode` sits on line 9)
    assert [[o["line"] for o in f["occurrences"]] for f in json.loads(proc.stdout)["findings"]] == [[8, 9], [12, 14, 15]]


def test_a_mask_in_a_module_handed_tensors_without_importing_torch():
    # fairseq's label-smoothed criterion imports only `fairseq.utils`; `target.unsqueeze(-1)` says its operands are
    # tensors (blind64 Mask-Predict). A NumPy module with the same mask and no tensor-only method stays clean.
    mask = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"
    assert findings("mask_no_torch_import_hit.py") == {(None, 11, 20, "TRN104", "medium", mask)}
    assert findings("mask_no_torch_import_lookalike.py") == set()


def test_a_name_unpacked_from_a_call_is_replaced_by_a_later_assignment():
    # peps-torch's Arnoldi SVD (blind71): `D, U = eigsh(...)` (SciPy arrays), then `U = torch.as_tensor(U)`; the
    # later `U.cuda()` moves a tensor. The unpacked binding had no place in the if/else order, so it kept
    # reaching and made `U` a SciPy value whose methods are never torch's.
    assert findings("unpacked_rebind_hit.py") == {
        (None, 9, 13, "TRN241", "medium", ".cuda() moves a tensor or module to a GPU: `cuda`"),
    }


def test_a_module_kept_on_the_instance_names_the_library():
    # HydrideSegmentation's models import torch lazily in __init__ and keep it as `self.torch` (blind71): the
    # forward's `self.torch.nn.functional.interpolate(..., mode="bilinear")` is torch's
    assert findings("self_module_alias_hit.py") == {
        (None, 9, 17, "TRN191", "high", "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate`"),
    }


def test_a_mask_by_its_name_on_one_axis_of_the_index():
    # spatialconv's JEPA loss (blind71): `predictions[:, mask_tensor]` keeps one column per True value; the mask
    # comes from another module, so its name is the evidence, as for `x[mask_tensor]`. An index named for
    # positions (`keep_idx`) is not a mask.
    named = ("Indexing with `mask_tensor`, a mask by its name: a boolean mask keeps one row per True value, a size "
             "known only at run time")
    got = findings("mask_named_axis_hit.py")
    assert {(line, col, rule) for _, line, col, rule, _, msg in got if msg == named} == {(6, 12, "TRN104")}


def test_a_list_of_device_ids_written_elsewhere_is_a_place_of_the_trainer_finding(tmp_path):
    # Astro-SimCLR (blind85): `gpus = [0]` at the top of each script, then `pl.Trainer(gpus=gpus)` in main(): the
    # list is the line to change, a place of the call's finding
    (tmp_path / "iter_clr.py").write_text(
        "import pytorch_lightning as pl\n\ngpus = [0]\n\n\ndef main(model):\n"
        "    pl.Trainer(\n        max_epochs=3,\n        gpus=gpus,\n    ).fit(model)\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--exit-zero")
    got = [(f["line"], f["column"], f["rule"], [(o["line"], o["column"]) for o in f.get("occurrences", ())])
           for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN247"]
    assert got == [(7, 5, "TRN247", [(3, 8)])]
