"""opt-in-switch: CUDA-only features behind a user switch named for them stay, as advisories."""
import json

from conftest import CONTEXT_FIXTURES, run_cli
from trnready import context

BNB = ("Hugging Face 8-bit / 4-bit loading (load_in_8bit, load_in_4bit, BitsAndBytesConfig): "
       "`transformers.BitsAndBytesConfig`")
NOTE = " (opt-in: only when `{}` is set; the default path does not use it)"


def _findings():
    proc = run_cli("scan", CONTEXT_FIXTURES / "opt_in_switch", "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["line"], f["column"], f["rule"], f["severity"], f["confidence"], f["message"])
            for f in json.loads(proc.stdout)["findings"]]


def test_switched_features_are_advisories_naming_the_switch():
    fp8 = "float8 / float4 dtypes or scaled matmul: `torch.float8_e4m3fn`"
    assert _findings() == [
        # x if args.fp8_vl else y; `elif args.fp8:` at line 7 is the same function's fp8 recipe (one per function)
        (5, 16, "TRN202", "advisory", "medium", fp8 + NOTE.format("args.fp8_vl")),
        (9, 9, "TRN284", "advisory", "medium", "xFormers: `xformers.ops`" + NOTE.format("xformers")),
        # `flash=True` by default: the feature is the default path
        (11, 9, "TRN281", "blocker", "high", "flash-attn (CUDA-only kernels): `flash_attn`"),
        # line 13 (`args.attn_mode == "xformers"`, a comparison the configured default may satisfy) stays a blocker
        # of its own: an advisory and a blocker of one library are never folded together
        (13, 9, "TRN284", "blocker", "medium", "xFormers: `xformers.ops`"),
        (15, 9, "TRN285", "advisory", "medium",
         "bitsandbytes (8-bit / 4-bit CUDA kernels): `bitsandbytes`" + NOTE.format("getattr(args, 'use_bnb', False)")),
        (16, 5, "TRN283", "blocker", "high", "NVIDIA Apex: `apex`"),  # no switch
    ]


def test_registered_with_the_advisory_effect():
    assert context.get("opt-in-switch").effect == "advisory"


def test_a_switch_that_is_on_by_default_is_no_opt_in():
    proc = run_cli("scan", CONTEXT_FIXTURES / "opt_in_switch_defaults", "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    found = sorted((f["path"], f["line"], f["column"], f["rule"], f["severity"], f["confidence"], f["message"])
                   for f in json.loads(proc.stdout)["findings"])
    assert found == [
        # picotron's `os.getenv("FLASH_ATTEN", "1") == "1"`: a comparison the default satisfies
        ("env_compare.py", 7, 9, "TRN281", "blocker", "high", "flash-attn (CUDA-only kernels): `flash_attn`"),
        # getattr(args, "use_flash_attn", True): on unless turned off
        ("load.py", 6, 9, "TRN281", "blocker", "high", "flash-attn (CUDA-only kernels): `flash_attn`"),
        # a dict getter and an environment variable with no default (or a false one): off unless the user asks
        ("load.py", 8, 9, "TRN284", "advisory", "medium",
         "xFormers: `xformers.ops`" + NOTE.format("cfg.get('use_xformers', False)")),
        ("load.py", 10, 9, "TRN285", "advisory", "medium",
         "bitsandbytes (8-bit / 4-bit CUDA kernels): `bitsandbytes`" + NOTE.format("os.getenv('USE_BNB')")),
        # os.environ.get("USE_APEX", "1"): a non-empty string default is true, the feature is the default path
        ("load.py", 17, 9, "TRN283", "blocker", "high", "NVIDIA Apex: `apex`"),
        # a notebook cell sets `USE_QLORA = True` and nothing sets it otherwise: on as written, the default path
        ("qlora_on.ipynb", 2, 18, "TRN286", "blocker", "high", BNB),
        # ... but a module that sets it back from the command line leaves it the user's switch
        ("switch_reset.py", 11, 18, "TRN286", "advisory", "medium", BNB + NOTE.format("USE_QLORA")),
    ]


def test_an_attention_mask_behind_a_switch_the_class_keeps_off_by_default_is_an_advisory():
    # fresh58 class (wenet's attention: `if not self.use_sdpa: <matmul path> else: F.scaled_dot_product_attention(...,
    # attn_mask=mask)`, `use_sdpa: bool = False` in __init__, set by no shipped config). For attention masks the
    # switch must be shown off by default: `use_sdpa=True` keeps the fused path the default one, and a switch kept from
    # a config object (`cfg.use_sdpa`) says nothing about its default. Both stay blockers.
    proc = run_cli("scan", CONTEXT_FIXTURES / "opt_in_switch_sdpa", "--format", "json", "--no-cache", "--no-config")
    assert proc.returncode in (0, 1), proc.stderr
    sdpa = "scaled_dot_product_attention with an explicit attention mask: " \
           "`torch.nn.functional.scaled_dot_product_attention`"
    assert [(f["line"], f["column"], f["rule"], f["severity"], f["confidence"], f["message"])
            for f in json.loads(proc.stdout)["findings"]] == [
        (18, 20, "TRN171", "advisory", "medium", sdpa + NOTE.format("self.use_sdpa")),
        (28, 20, "TRN171", "blocker", "high", sdpa),
        (39, 20, "TRN171", "blocker", "high", sdpa),
        # a subclass handing its own `use_sdpa=False` to the base that keeps it, after `if not ...: return`; a
        # subclass with no constructor of its own keeps the base's default
        (51, 16, "TRN171", "advisory", "medium", sdpa + NOTE.format("self.use_sdpa")),
        (57, 20, "TRN171", "advisory", "medium", sdpa + NOTE.format("self.use_sdpa")),
    ]
