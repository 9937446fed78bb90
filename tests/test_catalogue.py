"""Catalogue-wide invariants: vocabulary coverage, id ranges, and the labelled accuracy fixtures."""
import re
from collections import Counter

import pytest

from conftest import FIXTURES
from trnready.api import scan
from bench.accuracy import read_labels
from trnready.catalogue import load_catalogue
from trnready.config import Config

# The finding vocabulary, written out here on purpose (../shared/reference/categories.md is not
# available to the test suite): reports use these names verbatim.
VOCABULARY = (
    "dynamic-shapes", "compile-options", "float64", "int64", "sparse", "nested-tensor",
    "forward-ad", "attention-mask", "per-channel-quant", "upsampling", "fp8-torchao",
    "flex-attention", "legacy-neuron", "cuda-device", "cuda-amp", "cuda-backend-flags",
    "distributed-backend", "cuda-library", "custom-cuda-kernel", "environment",
)

# The id-range table of blockers.toml's header: each category's own block(s) of ten.
RANGES = {
    "dynamic-shapes": (100, 109), "compile-options": (110, 119), "float64": (120, 129), "int64": (130, 139),
    "sparse": (140, 149), "nested-tensor": (150, 159), "forward-ad": (160, 169), "attention-mask": (170, 179),
    "per-channel-quant": (180, 189), "upsampling": (190, 199), "fp8-torchao": (200, 209),
    "flex-attention": (210, 219), "legacy-neuron": (220, 239), "cuda-device": (240, 249), "cuda-amp": (250, 259),
    "cuda-backend-flags": (260, 269), "distributed-backend": (270, 279), "cuda-library": (280, 299),
    "custom-cuda-kernel": (300, 319), "environment": (320, 339),
}
# Shared ranges: category overflow (TRN35x-TRN49x), non-Python inputs (TRN5xx-TRN7xx), meta rules (TRN9xx).
SHARED = ((350, 499), (500, 799), (900, 999))

CATALOGUE = load_catalogue()


def test_vocabulary_is_the_documented_one():
    assert tuple(CATALOGUE.categories) == VOCABULARY
    assert len(set(VOCABULARY)) == 20


def test_category_id_blocks_in_the_catalogue_match_the_ranges():
    for name, blocks in CATALOGUE.categories.items():
        lo, hi = RANGES[name]
        assert blocks == tuple(f"TRN{n // 10}x" for n in range(lo, hi + 1, 10)), name


def test_every_category_has_an_entry_and_every_entry_a_known_category():
    used = Counter(r.category for r in CATALOGUE.rules)
    assert not set(used) - set(VOCABULARY), f"unknown categories: {set(used) - set(VOCABULARY)}"
    missing = [c for c in VOCABULARY if not used[c]]
    assert not missing, f"categories without an entry: {missing}"


def test_ids_are_unique_and_in_their_category_range():
    ids = [r.id for r in CATALOGUE.rules]
    assert len(ids) == len(set(ids))
    for r in CATALOGUE.rules:
        m = re.fullmatch(r"TRN(\d{3})", r.id)
        assert m, r.id
        n = int(m.group(1))
        lo, hi = RANGES[r.category]
        assert lo <= n <= hi or any(a <= n <= b for a, b in SHARED), \
            f"{r.id} ({r.category}) is outside TRN{lo}-TRN{hi} and the shared ranges"


def test_every_entry_reads_well_in_explain():
    for r in CATALOGUE.rules:
        assert r.source and r.docs.startswith("https://"), r.id
        assert len(r.why) > 40 and len(r.fix) > 20, r.id


def test_severities_follow_the_category_defaults():
    # categories.md: one default severity per category, with the documented exceptions.
    default = {"dynamic-shapes": "blocker", "compile-options": "change", "float64": "advisory", "int64": "advisory",
               "sparse": "blocker", "nested-tensor": "blocker", "forward-ad": "blocker", "attention-mask": "blocker",
               "per-channel-quant": "blocker", "upsampling": "blocker", "fp8-torchao": "blocker",
               "flex-attention": "advisory", "legacy-neuron": "change", "cuda-device": "change", "cuda-amp": "change",
               "cuda-backend-flags": "change", "distributed-backend": "change", "cuda-library": "blocker",
               "custom-cuda-kernel": "blocker", "environment": "change"}
    exceptions = {
        "TRN104": "advisory", "TRN105": "advisory", "TRN106": "advisory",  # data-dependent-shape ops
        "TRN112": "advisory", "TRN113": "advisory",  # ignored compile modes / inductor options
        "TRN114": "advisory",  # no backend named: Neuron picks its own on a neuron device
        "TRN227": "blocker",  # trn1 / inf instance types: unsupported hardware
        "TRN246": "advisory",  # CUDA allocator/launch variables: ignored off CUDA
        "TRN523": "advisory",  # CI matrices: what the project tests, not what it requires (TRN522 is the change)
        "TRN249": "advisory",  # CUDA-only seeds: skipped without CUDA, nothing fails
        "TRN354": "blocker",  # assert device_type == "cuda": the program stops on Neuron
        "TRN261": "advisory", "TRN263": "advisory",  # cuDNN/TF32 flags, reduce-overhead: no effect off CUDA
        "TRN273": "advisory",  # DDP device_ids: works when the ids count NeuronCores; review where they come from
        "TRN277": "advisory",  # NCCL tuning variables: ignored off NCCL, nothing fails
        "TRN291": "change",  # vLLM: same API through the vllm-neuron plugin
        "TRN174": "change",  # a causal mask built in the file: add the causal flag
        "TRN299": "advisory",  # CTranslate2 / faster-whisper: still runs, on the host CPU
        "TRN324": "blocker",  # a Python 2 module: it does not import on any Python TorchNeuron runs on
    }
    for r in CATALOGUE.rules:
        # Only the Python-API entries (TRN1xx-TRN4xx); the non-Python inputs (TRN5xx-TRN7xx) and the meta
        # rules (TRN9xx) choose their own severities (e.g. environment advisories, trn1 pins as blockers).
        if r.category not in default or not 100 <= int(r.id[3:]) <= 499:
            continue
        assert r.severity == exceptions.get(r.id, default[r.category]), r.id


def test_accuracy_fixtures_match_their_labels_exactly():
    root = FIXTURES / "accuracy"
    labels = read_labels(root)
    report = scan([root], Config(use_gitignore=False))
    assert not report.diagnostics, report.diagnostics
    # A place folded into another finding (one finding per thing) is still found: it is in `occurrences`.
    found = {(f.path, line, rule) for f in report.findings if not f.suppressed for line, rule in f.places()}
    assert labels.expected - found == set(), "misses"
    extra = found - labels.expected
    assert extra == set(), "findings on look-alike or unlabelled lines"


@pytest.mark.parametrize("category", VOCABULARY)
def test_accuracy_fixtures_cover_every_category(category):
    labels = read_labels(FIXTURES / "accuracy")
    hits = [e for e in labels.expected if e[0].startswith(category + "/")]
    looks = [e for e in labels.lookalikes if e[0].startswith(category + "/")]
    assert len(hits) >= 8 and len(looks) >= 8, (category, len(hits), len(looks))
