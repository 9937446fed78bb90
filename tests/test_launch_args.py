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


def test_flags_under_comment_lines_of_a_continued_command_are_its_flags(tmp_path):
    # a command annotated flag by flag: bash ends it at the first comment, but the flags below are written for it
    script = ("deepspeed train.py \\\n    # where the model is\n    --model_name_or_path m \\\n    # sharding\n"
              "    --deepspeed configs/zero2.json\n# python other.py \\\n--not-a-flag-of-anything\n")
    found = _findings(tmp_path, script)
    assert [(ln, rule, occ) for ln, _col, rule, _msg, occ in found] == [(1, "TRN287", [(5, "TRN287")])]


def test_a_comment_line_not_followed_by_flags_ends_the_command(tmp_path):
    script = "python train.py \\\n    # done\necho --deepspeed zero3.json\nls --deepspeed x.json\n"
    assert _findings(tmp_path, script) == []


def test_a_launcher_in_another_accelerators_folder_is_guarded(tmp_path):
    # scripts/npu/ is the Ascend twin of scripts/gpu/: its leftovers from the GPU script are not the port
    for folder in ("gpu", "npu"):
        (tmp_path / "scripts" / folder).mkdir(parents=True)
        (tmp_path / "scripts" / folder / "sample.sh").write_text(
            "CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 2 -m pkg.sample\n")
    (tmp_path / "run_fsdp_tpu.sh").write_text("export CUDA_VISIBLE_DEVICES=0\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    found = {(f["path"], f["rule"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]}
    assert found == {("scripts/gpu/sample.sh", "TRN605", ""),
                     ("scripts/npu/sample.sh", "TRN605", "other-accelerator-code"),
                     ("run_fsdp_tpu.sh", "TRN605", "other-accelerator-code")}


def test_a_plain_key_value_after_the_program_is_an_override(tmp_path):
    # `python -m pkg.train ... device='cuda:0'`: after the program a `key=value` word is its argument (a Hydra
    # override of a top-level key); before it (`CUDA_LAUNCH_BLOCKING=1 python ...`) and after `;` it is the shell's
    script = ("DEVICE=cuda python -m cal_ql.train \\\n    env='antmaze' \\\n    device='cuda:0' \\\n    seed=1\n"
              "python train.py device=cuda:1 batch_size=8; device=cuda echo done\n")
    found = [(ln, col, rule, occ) for ln, col, rule, _msg, occ in _findings(tmp_path, script)]
    assert found == [(3, 12, "TRN242", [(5, "TRN242")])]
