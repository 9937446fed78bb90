"""Flags of launch commands in shell scripts are training settings (readers/launch_args.py)."""
import json

from conftest import run_cli

SCRIPT = '''#!/bin/bash
# python train.py --deepspeed commented.json
MODEL=llama
pip install --index-url https://example.org/simple somepkg
deepspeed train.py \\
    --model_name_or_path $MODEL \\
    --deepspeed ./scripts/zero3.json \\
    --load_in_8bit \\
    --attn_implementation flash_attention_2 \\
    --bf16 True \\
    --output_dir out
echo "run with --use_deepspeed to shard"
accelerate launch --mixed_precision fp16 --use_deepspeed finetune.py --use_qlora
python eval.py --load_in_8bit False --device cpu
git clone --depth 1 https://example.org/repo.git
python train.py --deepspeed ./scripts/zero2.json
'''


def _findings(tmp_path, text):
    (tmp_path / "run.sh").write_text(text)
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["line"], f["column"], f["rule"], f["message"], [(o["line"], o["rule"]) for o in f.get("occurrences", ())])
            for f in json.loads(proc.stdout)["findings"]]


def test_flags_of_launch_commands_are_read_as_training_settings(tmp_path):
    assert _findings(tmp_path, SCRIPT) == [
        # the deepspeed launcher, --deepspeed with a JSON config, --use_deepspeed and the last command: one setting,
        # four places, reported at the launcher
        (5, 1, "TRN287", "DeepSpeed: `launcher: deepspeed`", [(7, "TRN287"), (13, "TRN287"), (16, "TRN287")]),
        # a bare flag is `true`
        (8, 5, "TRN286", "Hugging Face 8-bit / 4-bit loading (load_in_8bit, load_in_4bit, BitsAndBytesConfig): "
                         "`load_in_8bit: true`", [(13, "TRN286")]),  # --use_qlora: QLoRA loads in 4 bits
        (9, 27, "TRN282", "Hugging Face model loaded with FlashAttention 2/3: `attn_implementation: "
                          "flash_attention_2`", []),
        # `--use_deepspeed finetune.py` is a bare flag before the script
        (13, 37, "TRN254", "float16 mixed precision switched on by a training setting or launch flag: `mixed_precision: fp16`", []),
    ]


def test_commented_echoed_and_non_launch_flags_are_not_settings(tmp_path):
    # `--load_in_8bit False`, a commented command, an echoed hint, pip and git flags: nothing
    assert _findings(tmp_path, '''# python train.py --deepspeed z.json
echo "pass --use_deepspeed"
pip install --use-deprecated legacy-resolver pkg
python eval.py --load_in_8bit False --attn_implementation sdpa
''') == []
