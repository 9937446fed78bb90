"""A shell launcher's flags read by the program it launches (project/launcher_fp16.py, project/config_switches.py):
`--fp16` is CUDA float16 AMP (TRN254) unless the launched program is the project's own code that parses the flag
itself and uses it for no CUDA AMP API; a flag set true (`--use_amp`) is a place of the AMP finding its value
switches on."""
import json

from conftest import run_cli

# A program with its own `--fp16`: half weights and a hand-written loss scale, no autocast or GradScaler.
OWN_HALF = """import argparse

import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fp16", default=False, type=lambda s: s == "True")
    parser.add_argument("--lr", type=float, default=1e-4)
    args = parser.parse_args()
    model = torch.nn.Linear(4, 4)
    if args.fp16:
        model = model.half()
    return model


if __name__ == "__main__":
    main()
"""

# The same flag turning on torch.cuda.amp through an attribute the trainer keeps.
OWN_AMP = """import argparse

import torch


class Trainer:
    def __init__(self, args):
        self.amp_training = args.fp16
        self.scaler = None

    def step(self, model, x):
        with torch.cuda.amp.autocast(enabled=self.amp_training):
            return model(x)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-f", "--fp16", action="store_true")
    parser.add_argument("--use_amp", action="store_true")
    args = parser.parse_args()
    scaler = torch.cuda.amp.GradScaler() if args.use_amp else None
    return Trainer(args), scaler


if __name__ == "__main__":
    main()
"""

HF = """from transformers import HfArgumentParser, TrainingArguments

if __name__ == "__main__":
    (args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
"""


def _scan(root):
    """cuda-amp places in launchers: findings of their own, and flags folded into the finding they switch on."""
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--no-config", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    found = json.loads(proc.stdout)["findings"]
    own = [(f["path"], f["line"], f["column"], f["rule"]) for f in found
           if f["path"].endswith(".sh") and f["category"] == "cuda-amp"]
    folded = [(o["path"], o["line"], o["column"], o["rule"]) for f in found if f["category"] == "cuda-amp"
              for o in f.get("elsewhere") or () if o["path"].endswith(".sh")]
    return sorted(own + folded)


def test_fp16_of_a_program_that_only_halves_its_weights_is_not_cuda_amp(tmp_path):
    (tmp_path / "pkg" / "apps").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "apps" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "apps" / "run.py").write_text(OWN_HALF)
    (tmp_path / "experiments").mkdir()
    # the flag sits in a variable the command expands, as in a per-model `case`
    (tmp_path / "experiments" / "glue.sh").write_text(
        'params=" --lr 1e-5 \\\n  --fp16 True "\npython -m pkg.apps.run --task mnli $params\n')
    (tmp_path / "experiments" / "direct.sh").write_text("python ../pkg/apps/run.py --fp16 True\n")
    assert _scan(tmp_path) == []


def test_fp16_stays_for_frameworks_unknown_programs_and_programs_that_reach_cuda_amp(tmp_path):
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "train.py").write_text(OWN_AMP)
    (tmp_path / "hf_train.py").write_text(HF)
    (tmp_path / "half.py").write_text(OWN_HALF)
    (tmp_path / "amp.sh").write_text("python tools/train.py --fp16 \\\n    --use_amp\n")
    (tmp_path / "hf.sh").write_text("torchrun --nproc_per_node 2 hf_train.py --fp16 True\n")
    (tmp_path / "ds.sh").write_text("deepspeed half.py --fp16 True\n")
    (tmp_path / "other.sh").write_text("fairseq-train data-bin --fp16\n")
    (tmp_path / "var.sh").write_text("python $ENTRY --fp16\n")
    assert _scan(tmp_path) == [
        ("amp.sh", 1, 23, "TRN254"),
        ("amp.sh", 2, 5, "TRN251"),  # `--use_amp` turns on the GradScaler under `if args.use_amp`
        ("ds.sh", 1, 19, "TRN254"),
        ("hf.sh", 1, 41, "TRN254"),
        ("other.sh", 1, 24, "TRN254"),
        ("var.sh", 1, 15, "TRN254"),
    ]


def test_a_flag_compared_with_true_switches_like_the_flag_itself(tmp_path):
    (tmp_path / "train.py").write_text(
        "import argparse\n\nfrom torch.cuda import amp\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--enable_amp', action='store_true')\nparams = parser.parse_args()\n"
        "if params.enable_amp == True:\n    scaler = amp.GradScaler()\n")
    (tmp_path / "run.sh").write_text('cmd="python train.py --enable_amp --run_num=1"\nsrun bash -c "$cmd"\n')
    (tmp_path / "off.sh").write_text("python train.py --run_num=1 --enable_amp False\n")
    assert _scan(tmp_path) == [("run.sh", 1, 22, "TRN251")]


def test_a_conjunction_of_keys_is_switched_on_only_when_every_key_is_set(tmp_path):
    (tmp_path / "finetune.py").write_text(
        "import argparse\n\nparser = argparse.ArgumentParser()\nparser.add_argument('--use_lora', action='store_true')\n"
        "parser.add_argument('--q_lora', action='store_true')\nargs = parser.parse_args()\n"
        "if args.use_lora and args.q_lora:\n    from auto_gptq import AutoGPTQForCausalLM\n")
    (tmp_path / "lora.sh").write_text("python finetune.py --use_lora\n")
    (tmp_path / "qlora.sh").write_text("python finetune.py \\\n    --use_lora \\\n    --q_lora\n")
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--no-config", cwd=tmp_path)
    found = [(f["path"], f["line"], f["rule"], [(o["path"], o["line"]) for o in f.get("elsewhere", ())])
             for f in json.loads(proc.stdout)["findings"]]
    assert found == [("finetune.py", 8, "TRN294", [("qlora.sh", 2), ("qlora.sh", 3)])]
