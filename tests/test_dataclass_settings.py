"""Fields of a training-arguments dataclass read as training-config settings (readers/dataclass_settings.py)."""
from conftest import FIXTURES, scan_findings

ROOT = FIXTURES / "dataclass_settings"
BNB = "bitsandbytes (8-bit / 4-bit CUDA kernels)"
LOAD = "Hugging Face 8-bit / 4-bit loading (load_in_8bit, load_in_4bit, BitsAndBytesConfig)"


def test_field_defaults_of_a_training_arguments_dataclass_are_settings():
    assert scan_findings(ROOT / "qlora_args.py") == [
        # a subclass of transformers' TrainingArguments: every field is a flag of HfArgumentParser, its default
        # the value a run without the flag uses; `bits` is named like no setting (the `bits == 4` that decides
        # load_in_4bit elsewhere is not followed)
        ("qlora_args.py", 9, 40, "TRN286", f"{LOAD}: `load_in_4bit: true`", False),
        ("qlora_args.py", 10, 32, "TRN285", f"{BNB}: `optim: paged_adamw_32bit`", False),
        # no base class, but two keys only training configs use (output_dir, learning_rate); tf32 = False and
        # te_fp8_wgrad (a setting named by the glob `te_*` only): nothing
        ("qlora_args.py", 19, 22, "TRN285", f"{BNB}: `optimizer: adamw_8bit`", False),
        # adamw_torch_fused, a one-field dataclass that is no training config, a plain class's attributes and a
        # function's parameter default: nothing
    ]


def test_field_default_is_the_value_of_a_keyword_read_as_a_default():
    # `attn_implementation: str = field(default="flash_attention_2")` is the same default as `= "flash_attention_2"`;
    # "sdpa" and a default_factory (a call at run time): nothing
    assert scan_findings(ROOT / "model_config.py") == [
        ("model_config.py", 7, 32, "TRN282", "Hugging Face model loaded with FlashAttention 2/3: `attn_implementation`",
         False),
        ("model_config.py", 8, 39, "TRN271", "Distributed process group on NCCL: configured default backend `nccl`",
         False)]


def test_unannotated_class_attributes_of_a_config_dataclass_are_settings():
    # `precision = "amp"` and `dist_backend = "nccl"` are class attributes, not dataclass fields, but the config
    # object carries them all the same; `amp_bf16` (no scaler) and a plain class that is no dataclass: nothing
    assert scan_findings(ROOT / "run_config.py") == [
        ("run_config.py", 9, 17, "TRN254",
         "float16 mixed precision switched on by a training setting or launch flag: `precision: amp`", False),
        ("run_config.py", 10, 20, "TRN271", "Distributed process group on NCCL: `dist_backend: nccl`", False),
    ]
