"""A training-config key set true that the project's Python reads into the condition guarding a finding is a
place of that finding: folded into it (`elsewhere` for a config or launcher, `occurrences` for an option default in
the finding's own file), its message naming the setting (project/config_switches.py)."""
import json
import sys

from conftest import run_cli

TRAIN_YAML = """model:
  arch: tiny
  low_resource: True
run:
  max_epoch: 4
  amp: True
  use_fused_adam: true
  fused_norm: True
  enabled: True
  keep_fp32: True
"""

# The same keys switched off: a config of the project that turns nothing on.
EVAL_YAML = """model:
  arch: tiny
  low_resource: False
run:
  max_epoch: 1
  amp: false
  use_fused_adam: 0
  fused_norm: null
"""

RUNNER = """import torch


class Runner:
    def __init__(self, cfg):
        self.cfg = cfg
        self._scaler = None

    @property
    def scaler(self):
        amp = self.cfg.run.get("amp", False)
        if amp:
            if self._scaler is None:
                self._scaler = torch.cuda.amp.GradScaler()
        return self._scaler

    def optimizer(self, params):
        if not self.cfg.run.get("use_fused_adam"):
            return torch.optim.AdamW(params)
        else:
            from apex.optimizers import FusedAdam
            return FusedAdam(params)

    def step(self, batch):
        if self.cfg.run.enabled:
            torch.cuda.synchronize()
        if self.cfg.run.get("keep_fp32") == "never":
            torch.cuda.empty_cache()
        return batch
"""

MODEL = """from transformers import AutoModelForCausalLM


class Tiny:
    @classmethod
    def from_config(cls, cfg):
        low_resource = cfg.get("low_resource", False)
        return cls(low_resource=low_resource)

    def __init__(self, low_resource=False, fused_norm=False):
        self.llm = load_llm(low_resource)
        if fused_norm:
            from apex.normalization import FusedLayerNorm
            self.norm = FusedLayerNorm(8)


def load_llm(low_resource):
    if low_resource:
        return AutoModelForCausalLM.from_pretrained("tiny", load_in_8bit=True)
    return AutoModelForCausalLM.from_pretrained("tiny")
"""


SERVE = """import sys

import yaml

from model import Tiny
from runner import Runner

if __name__ == "__main__":
    cfg = yaml.safe_load(open(sys.argv[1]))
    model = Tiny.from_config(cfg)
    runner = Runner(cfg)
    runner.optimizer(model.parameters())
    runner.step(None)
"""


def _tree(root, runner=RUNNER, train=TRAIN_YAML):
    (root / "train_configs").mkdir()
    (root / "train_configs" / "tiny_train.yaml").write_text(train)
    (root / "eval_configs").mkdir()
    (root / "eval_configs" / "tiny_eval.yaml").write_text(EVAL_YAML)
    (root / "runner.py").write_text(runner)
    (root / "model.py").write_text(MODEL)
    # the entry point that builds the model and runs the runner: without it Tiny, load_llm which only Tiny calls,
    # and the runner's methods are dead code
    (root / "serve.py").write_text(SERVE)


def _settings(root, *args):
    """(setting path, line, column, rule, category, the finding it is folded into as `path:line`, that finding's
    message) for every setting folded into a finding that its message names (`at path:N (read in ...` for a place in
    another file, `at line N (read in ...` for an occurrence). Sorted by place."""
    proc = run_cli("scan", ".", "--format", "json", *args, cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    out = []
    for f in json.loads(proc.stdout)["findings"]:
        host = f"{f['path']}:{f['line']}"
        for o in f.get("elsewhere") or ():
            if f"at {o['path']}:{o['line']} (read in" in f["message"]:
                out.append((o["path"], o["line"], o["column"], o["rule"], f["category"], host, f["message"]))
        for o in f.get("occurrences") or ():
            if f"at line {o['line']} (read in" in f["message"]:
                out.append((f["path"], o["line"], o["column"], o["rule"], f["category"], host, f["message"]))
    return sorted(out)


def _configs(root, *args):
    return [s for s in _settings(root, *args) if s[0].endswith((".yaml", ".json"))]


def test_keys_set_true_that_guard_findings_are_places_of_those_findings(tmp_path):
    _tree(tmp_path)
    assert _configs(tmp_path, "--no-cache") == [
        # a parameter named as the key, handed on from `cfg.get("low_resource")`
        ("train_configs/tiny_train.yaml", 3, 17, "TRN286", "cuda-library", "model.py:19",
         "Hugging Face 8-bit / 4-bit loading (load_in_8bit, load_in_4bit, BitsAndBytesConfig): `load_in_8bit`; "
         "switched on by `low_resource: True` at train_configs/tiny_train.yaml:3 (read in `low_resource` at line 18)"),
        # a local assigned from the config read
        ("train_configs/tiny_train.yaml", 6, 8, "TRN251", "cuda-amp", "runner.py:14",
         "torch.cuda.amp (autocast, GradScaler, custom_fwd / custom_bwd): `torch.cuda.amp`; "
         "switched on by `amp: True` at train_configs/tiny_train.yaml:6 (read in `amp` at line 12)"),
        # `if not key:` ... `else:` -- the else arm is what the true value turns on
        ("train_configs/tiny_train.yaml", 7, 19, "TRN283", "cuda-library", "runner.py:21",
         "NVIDIA Apex: `apex.optimizers`; switched on by `use_fused_adam: true` at train_configs/tiny_train.yaml:7 "
         "(read in `not self.cfg.run.get('use_fused_adam')` at line 18)"),
    ]
    # no finding of its own in the config: one work item, the code the setting selects
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    assert not [f for f in json.loads(proc.stdout)["findings"] if f["path"].endswith(".yaml")]


def test_false_values_generic_keys_comparisons_and_unread_names_stay_silent(tmp_path):
    # the eval config sets every key off; `enabled` is generic; `keep_fp32` is compared with a value, not
    # tested for truth; `fused_norm` is only a parameter's name, a key the project never reads by name
    _tree(tmp_path)
    found = _configs(tmp_path, "--no-cache")
    assert not [f for f in found if f[0].startswith("eval_configs/")]
    assert {f[1] for f in found} == {3, 6, 7}
    # the Python findings under those conditions are found where they are, as before
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=tmp_path)
    py = {(f["path"], f["line"]) for f in json.loads(proc.stdout)["findings"] if f["path"].endswith(".py")}
    assert {("runner.py", 26), ("model.py", 13)} <= py


def test_a_keyword_value_read_from_the_config_is_a_switch(tmp_path):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "run.yaml").write_text("model: tiny\nbatch_size: 8\nuse_amp: true\n")
    (tmp_path / "train.py").write_text(
        "import torch\n\n\ndef step(cfg, model, x):\n"
        "    with torch.autocast('cuda', enabled=cfg.use_amp):\n        return model(x)\n")
    found = _configs(tmp_path, "--no-cache")
    assert [(f[1], f[3], f[4], f[5]) for f in found] == [(3, "TRN253", "cuda-amp", "train.py:5")]
    assert found[0][6].endswith(
        "; switched on by `use_amp: true` at configs/run.yaml:3 (read in `cfg.use_amp` at line 5)")


def test_a_wandb_style_parameter_switches_by_the_key_above_its_value(tmp_path):
    # W&B's config form: each parameter a mapping with `desc` and `value`; the parameter is the key above `value`
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "run.yaml").write_text(
        "batch_size:\n  value: 8\nuse_mixed:\n  desc: mixed precision during training\n  value: true\n"
        "verbose:\n  desc: chatty logs\n  value: true\n")
    (tmp_path / "train.py").write_text(
        "from torch.cuda import amp\n\n\nclass Fit:\n    def __init__(self, config):\n        self.config = config\n"
        "        self.scaler = amp.GradScaler(enabled=config.use_mixed)\n")
    found = _configs(tmp_path, "--no-cache")
    assert [(f[1], f[3], f[5]) for f in found] == [(5, "TRN251", "train.py:7")]


def test_a_guarded_or_suppressed_finding_switches_nothing_on(tmp_path):
    runner = RUNNER.replace("        if amp:\n", "        if amp and torch.cuda.is_available():\n")
    _tree(tmp_path, runner=runner)
    assert 6 not in {f[1] for f in _configs(tmp_path, "--no-cache")}
    # a suppression comment on the config line silences it like any other finding: it stays a finding of its
    # own, suppressed (no "unused suppression"), and is no place of the code's finding
    suppressed = TRAIN_YAML.replace("  amp: True\n", "  amp: True  # trnready: ignore[TRN251] amp is bf16 here\n")
    (tmp_path / "runner.py").write_text(RUNNER)
    (tmp_path / "train_configs" / "tiny_train.yaml").write_text(suppressed)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    found = json.loads(proc.stdout)["findings"]
    assert [(f["line"], f["rule"], f["suppressed"]) for f in found if f["path"].endswith(".yaml")] == \
        [(6, "TRN251", True)]
    assert [f.get("elsewhere") for f in found if (f["path"], f["line"]) == ("runner.py", 14)] == [None]


def test_a_config_edit_rejoins_from_cached_python_summaries(tmp_path, monkeypatch):
    from trnready.api import scan
    from trnready.config import Config
    from trnready.project import report, switch_conditions

    _tree(tmp_path, train=TRAIN_YAML.replace("  amp: True\n", "  amp: False\n"))
    cfg = Config(cache_dir=str(tmp_path.parent / (tmp_path.name + "-cache")))
    calls = {"parsed": 0, "python summaries": 0}
    run, unpack = switch_conditions._Switches.run, report._unpack

    def counted_run(self):
        calls["parsed"] += 1
        return run(self)

    def counted_unpack(rel, s):
        # the join's own reads of Python summaries (other project steps key on every file and may unpack them)
        caller = sys._getframe(1).f_code.co_filename
        calls["python summaries"] += rel.endswith(".py") and caller.endswith("config_switches.py")
        return unpack(rel, s)

    monkeypatch.setattr(switch_conditions._Switches, "run", counted_run)
    monkeypatch.setattr(report, "_unpack", counted_unpack)

    def lines():
        return sorted(ln for f in scan([tmp_path], cfg, root=tmp_path).findings
                      for p, ln, _, _ in f.elsewhere if p == "train_configs/tiny_train.yaml")

    assert lines() == [3, 7] and calls["parsed"] == 2  # runner.py and model.py hold findings
    calls.update({"parsed": 0, "python summaries": 0})
    (tmp_path / "train_configs" / "tiny_train.yaml").write_text(TRAIN_YAML)
    # the config alone is read again; the Python side comes from the cache
    assert lines() == [3, 6, 7] and calls == {"parsed": 0, "python summaries": 0}
    # the runner stops reading the key: its file alone is parsed again, and the switch is gone
    (tmp_path / "runner.py").write_text(RUNNER.replace('get("amp", False)', 'get("loss_scale", False)'))
    assert lines() == [3, 7] and calls["parsed"] == 1


PROFILED = """import torch
from vllm import LLM


def setup(cfg, model):
    if cfg.get("quantize_experts"):
        torch.cuda.empty_cache()
    if cfg.get("use_cuda"):
        model = model.cuda()
    if cfg.profiler.cuda:
        acts = [torch.profiler.ProfilerActivity.CUDA]
    llm = LLM("tiny", trust_remote_code=cfg.trust_remote_code)
    return model, llm
"""


def test_a_key_turns_on_a_feature_not_whatever_sits_in_its_block(tmp_path):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "run.yaml").write_text(
        "model: tiny\nbatch_size: 8\nquantize_experts: true\nuse_cuda: true\ntrust_remote_code: true\n"
        "profiler:\n  enabled: False\n  cuda: True\n")
    (tmp_path / "train.py").write_text(PROFILED)
    # quantize_experts: a device call that merely sits in the block (not a feature the key selects);
    # profiler.cuda: the profiler node is switched off; trust_remote_code: a keyword the vLLM finding does not
    # name. use_cuda names the device: the `.cuda()` it guards is its place.
    assert [(f[1], f[3], f[4], f[5]) for f in _configs(tmp_path, "--no-cache")] == \
        [(4, "TRN241", "cuda-device", "train.py:9")]
    (tmp_path / "configs" / "run.yaml").write_text(
        "model: tiny\nbatch_size: 8\nprofiler:\n  enabled: True\n  cuda: True\n")
    assert [(f[1], f[4]) for f in _configs(tmp_path, "--no-cache")] == [(5, "cuda-device")]


def test_keys_of_one_config_turning_on_one_feature_are_places_of_one_finding(tmp_path):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "run.yaml").write_text(
        "model: tiny\nbatch_size: 8\nliger_rms_norm: true\nliger_rope: true\nfused_norm: true\nfused_rope: true\n")
    (tmp_path / "plugin.py").write_text(
        "def patch(cfg, mod):\n"
        "    if cfg.liger_rms_norm or cfg.fused_norm:\n"
        "        from liger_kernel.transformers import LigerRMSNorm\n"
        "        mod.RMSNorm = LigerRMSNorm\n"
        "    if cfg.liger_rope or cfg.fused_rope:\n"
        "        from liger_kernel.transformers import liger_rotary_pos_emb\n"
        "        mod.apply_rotary_pos_emb = liger_rotary_pos_emb\n")
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    found = [f for f in json.loads(proc.stdout)["findings"] if f["path"].endswith(".yaml")]
    # lines 3-4: the catalogue's own Liger settings (one finding, line 4 folded into it), no second finding
    # there; lines 5-6: the switches this step found, places of the import they turn on
    assert [(f["line"], f["rule"], [o["line"] for o in f.get("occurrences", ())]) for f in found] == \
        [(3, "TRN292", [4])]
    assert [(f[0], f[1], f[3], f[5]) for f in _configs(tmp_path, "--no-cache")] == \
        [("configs/run.yaml", 5, "TRN292", "plugin.py:3"), ("configs/run.yaml", 6, "TRN292", "plugin.py:3")]


SPLAT_TRAIN = """import torch
from omegaconf import OmegaConf


def main(name, use_amp: bool = True, use_xformers: bool = True, fused_norm: bool = False):
    if use_xformers:
        unet.enable_xformers_memory_efficient_attention()
    scaler = torch.cuda.amp.GradScaler() if use_amp else None
    if fused_norm:
        from apex.normalization import FusedLayerNorm
    return scaler


def wrapped(**kwargs):
    return helper(**kwargs)


def helper(cudnn_bench=False):
    if cudnn_bench:
        torch.backends.cudnn.benchmark = True


def literal():
    return other(**{"fast": True})


def other(fast=False):
    if fast:
        torch.backends.cudnn.benchmark = True


def built(bench):
    kw: dict = {"bench_kernels": bench}
    return third(**kw)


def third(bench_kernels=False):
    if bench_kernels:
        torch.backends.cudnn.benchmark = True


if __name__ == "__main__":
    config = OmegaConf.load("configs/train.yaml")
    main(name="run", **config)
"""


def test_parameters_filled_from_a_splatted_config_are_read_by_name(tmp_path):
    # `main(**config)` hands each key to the parameter of that name: `use_xformers` and `use_amp` set true turn
    # on what their conditions guard. `fused_norm` is set false; `cudnn_bench`, `fast` and `bench_kernels` are
    # parameters filled only from the caller's own **kwargs, from a dict display and from a local built as one, not from a config.
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "train.yaml").write_text(
        "learning_rate: 1.0e-4\nbatch_size: 4\nuse_amp: true\nuse_xformers: True\nfused_norm: false\n"
        "cudnn_bench: true\nfast: true\nbench_kernels: true\n")
    (tmp_path / "train.py").write_text(SPLAT_TRAIN)
    found = _configs(tmp_path, "--no-cache")
    assert [(f[1], f[3], f[4], f[5]) for f in found] == [(3, "TRN251", "cuda-amp", "train.py:8"),
                                                       (4, "TRN284", "cuda-library", "train.py:7")]
    assert found[0][6].endswith("switched on by `use_amp: true` at configs/train.yaml:3 (read in `use_amp` at line 8)")
    # without the splat call nothing reads the keys by name: the parameters alone switch nothing on
    (tmp_path / "train.py").write_text(SPLAT_TRAIN.replace('main(name="run", **config)', 'main(name="run")'))
    assert _configs(tmp_path, "--no-cache") == []


RENDERER = """import nerfacc


class Renderer:
    def __init__(self, cfg):
        self.cfg = cfg

    def forward(self, weights, ray_indices, n_rays, normal):
        opacity = nerfacc.accumulate_along_rays(weights, values=None, ray_indices=ray_indices, n_rays=n_rays)
        if self.cfg.return_comp_normal:
            normal = nerfacc.accumulate_along_rays(weights, values=normal, ray_indices=ray_indices, n_rays=n_rays)
        if self.cfg.packed_depth:
            opacity = opacity + 1
        return opacity, normal
"""

PACKED = """import nerfacc


class Packed:
    def __init__(self, cfg):
        self.cfg = cfg

    def forward(self, weights, ray_indices, n_rays):
        if self.cfg.packed_depth:
            return nerfacc.accumulate_along_rays(weights, values=None, ray_indices=ray_indices, n_rays=n_rays)
        return weights.sum(-1)
"""


def test_a_key_guarding_one_more_use_of_a_library_used_anyway_turns_nothing_on(tmp_path):
    # renderer.py uses nerfacc outside any switched block: `return_comp_normal: true` guards one more use of a
    # library the code needs anyway; packed.py uses it only under `packed_depth`, which does turn it on
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "run.yaml").write_text(
        "name: demo\nseed: 0\nsystem:\n  renderer:\n    return_comp_normal: true\n    packed_depth: true\n"
        "trainer:\n  max_steps: 10\n")
    (tmp_path / "renderer.py").write_text(RENDERER)
    assert _configs(tmp_path, "--no-cache") == []
    (tmp_path / "packed.py").write_text(PACKED)
    assert [(f[1], f[3], f[5]) for f in _configs(tmp_path, "--no-cache")] == [(6, "TRN298", "packed.py:1")]


VITS_TRAIN = """import torch
from torch.cuda.amp import autocast, GradScaler


def run(hps, net, loader):
    scaler = GradScaler(enabled=hps.train.fp16_run)
    for x in loader:
        with autocast(enabled=hps.train.fp16_run):
            loss = net(x)
        scaler.scale(loss).backward()
"""


def test_a_keyword_switch_on_the_call_itself_holds_even_when_the_import_line_is_a_place(tmp_path):
    # vits: `"fp16_run": true` in a JSON config, read as `GradScaler(enabled=hps.train.fp16_run)` and
    # `autocast(enabled=hps.train.fp16_run)`; the finding's other place is the import line, which uses nothing, so
    # the library is not "used anyway". `"fp16_run": false` in the other config turns nothing on.
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "base.json").write_text(
        '{\n  "train": {\n    "epochs": 10,\n    "batch_size": 8,\n    "fp16_run": true\n  }\n}\n')
    (tmp_path / "configs" / "fp32.json").write_text(
        '{\n  "train": {\n    "epochs": 10,\n    "batch_size": 8,\n    "fp16_run": false\n  }\n}\n')
    (tmp_path / "train.py").write_text(VITS_TRAIN)
    found = _configs(tmp_path, "--no-cache")
    assert [(f[0], f[1], f[3], f[4], f[5]) for f in found] == [("configs/base.json", 5, "TRN251", "cuda-amp",
                                                                "train.py:6")]


OPTIM = """import torch


def build_optimizer(params, model):
    if params.optimizer_type == 'FusedAdam':
        from apex.optimizers import FusedAdam
        return FusedAdam(model.parameters(), lr=params.lr)
    return torch.optim.AdamW(model.parameters(), lr=params.lr)
"""


def test_a_config_value_the_code_compares_to_pick_a_cuda_library_is_a_switch(tmp_path):
    # hit: `optimizer_type: 'FusedAdam'` is the value `params.optimizer_type == 'FusedAdam'` picks the Apex arm with
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "afno.yaml").write_text("full_field: &FULL\n  lr: 1e-3\n  max_epochs: 50\n"
                                                   "  optimizer_type: 'FusedAdam'\n  batch_size: 8\n")
    (tmp_path / "train.py").write_text(OPTIM)
    found = _configs(tmp_path, "--no-cache")
    assert [(f[0], f[1], f[2], f[3], f[4], f[5]) for f in found] == \
        [("config/afno.yaml", 4, 19, "TRN283", "cuda-library", "train.py:6")]
    assert found[0][6].endswith("switched on by `optimizer_type: FusedAdam` at config/afno.yaml:4 (read in "
                                "`params.optimizer_type == 'FusedAdam'` at line 5)")
    # look-alike: another value picks the other arm
    (tmp_path / "config" / "afno.yaml").write_text("full_field: &FULL\n  lr: 1e-3\n  max_epochs: 50\n"
                                                   "  optimizer_type: 'AdamW'\n  batch_size: 8\n")
    assert _configs(tmp_path, "--no-cache") == []


FALLBACK_MODEL = """import torch

try:
    from flash_attn.ops.layer_norm import dropout_add_layer_norm
except ImportError:
    dropout_add_layer_norm = None


class Block(torch.nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.fused = cfg.get("fused_dropout_add_ln", False)
        self.norm = torch.nn.LayerNorm(8)

    def forward(self, x, residual):
        if self.fused:
            return dropout_add_layer_norm(x, residual, self.norm.weight, self.norm.bias, 0.1, 1e-5)
        return self.norm(x + residual)
"""


def test_a_key_that_picks_the_arm_of_an_import_with_a_fallback_is_a_switch(tmp_path):
    # the import is guarded (it has a fallback, None), but the key picks the arm that calls the library: on a
    # Trainium host that arm calls None. The import is reported again, at its rule's severity, with the setting as
    # its place. Look-alike: the key set false (the import stays guarded)
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "model.yaml").write_text("lr: 1e-3\nmax_epochs: 10\nfast_ln: True\n")
    (tmp_path / "model.py").write_text(FALLBACK_MODEL.replace("fused_dropout_add_ln", "fast_ln"))
    found = _configs(tmp_path, "--no-cache")
    assert [(f[0], f[1], f[3], f[4], f[5]) for f in found] == [("configs/model.yaml", 3, "TRN281", "cuda-library",
                                                                "model.py:4")]
    assert found[0][6] == ("flash-attn (CUDA-only kernels): `flash_attn.ops.layer_norm`; switched on by "
                           "`fast_ln: True` at configs/model.yaml:3 (read in `self.fused` at line 16)")
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    assert [(f["line"], f["severity"], f["guarded"]) for f in json.loads(proc.stdout)["findings"]] == \
        [(4, "blocker", False)]
    (tmp_path / "configs" / "model.yaml").write_text("lr: 1e-3\nmax_epochs: 10\nfast_ln: False\n")
    assert _configs(tmp_path, "--no-cache") == []
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    assert json.loads(proc.stdout)["findings"] == []


AMP_PROGRAM = """import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--use_amp", action="store_true")
args = parser.parse_args()
if args.use_amp:
    scaler = torch.cuda.amp.GradScaler()
"""


def test_a_launch_flag_switches_the_program_it_launches_not_its_namesakes(tmp_path):
    # two programs named train.py in one repository; the launcher in z/ runs its own (a path from the script's
    # folder): the other train.py reads the same flag but is another program
    for d in ("a", "z"):
        (tmp_path / d).mkdir()
        (tmp_path / d / "train.py").write_text(AMP_PROGRAM)
    (tmp_path / "z" / "run.sh").write_text("python train.py --use_amp\n")
    # a launcher whose program is a variable resolves nothing: both namesakes stay joined
    (tmp_path / "any.sh").write_text('python "$PROGRAM" --use_amp\n')
    got = [(f[0], f[1], f[3], f[5]) for f in _settings(tmp_path, "--no-cache", "--no-config")]
    assert got == [("any.sh", 1, "TRN251", "a/train.py:9"), ("z/run.sh", 1, "TRN251", "z/train.py:9")]


LOADER = """from transformers import AutoModelForCausalLM, BitsAndBytesConfig


def load(cfg, name):
    kwargs = {}
    if cfg.quant_mode == "nf4" and cfg.load_in_4bit:
        kwargs["quantization_config"] = BitsAndBytesConfig(load_in_4bit=True)
    if cfg.flash_attention:
        if not cfg.pack_rows:
            kwargs["attn_implementation"] = "flash_attention_2"
        else:
            kwargs["attn_implementation"] = "flash_attention_2"
            kwargs["use_cache"] = False
    if cfg.pad_fast and cfg.fast_kernels:
        from apex.normalization import FusedLayerNorm
        kwargs["norm"] = FusedLayerNorm
    return AutoModelForCausalLM.from_pretrained(name, **kwargs)
"""


def test_a_key_that_only_selects_among_arms_of_a_feature_reported_at_another_key_is_no_second_finding(tmp_path):
    # `load_in_4bit: true` is the catalogue's own finding: `quant_mode: nf4`, the other key of the conjunction that
    # loads BitsAndBytes, adds nothing. `pack_rows: true` picks between two arms that both load FlashAttention 2,
    # inside `if cfg.flash_attention:`, whose `flash_attention: true` is the catalogue's own finding too.
    # `pad_fast` and `fast_kernels` turn Apex on together; neither line is reported of its own, so the switch
    # stays (one finding, the second key its occurrence).
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "run.yaml").write_text(
        "base_model: tiny\nload_in_4bit: true\nquant_mode: nf4\nflash_attention: true\npack_rows: true\n"
        "pad_fast: true\nfast_kernels: true\n")
    (tmp_path / "loader.py").write_text(LOADER)
    (tmp_path / "train.py").write_text("import yaml\nfrom loader import load\n\n"
                                       "load(yaml.safe_load(open('configs/run.yaml')), 'tiny')\n")
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    found = [(f["line"], f["rule"], [o["line"] for o in f.get("occurrences", ())], f["message"].split(" (")[0])
             for f in json.loads(proc.stdout)["findings"] if f["path"].endswith(".yaml")]
    assert found == [
        (2, "TRN286", [], "Hugging Face 8-bit / 4-bit loading"),
        (4, "TRN282", [], "Hugging Face model loaded with FlashAttention 2/3: `flash_attention: true`"),
    ]
    assert [(f[1], f[3], f[5]) for f in _configs(tmp_path, "--no-cache")] == \
        [(6, "TRN283", "loader.py:15"), (7, "TRN283", "loader.py:15")]


APEX_TRAIN = """import argparse

from apex import amp


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--use_fp16", type=bool_flag, default=True)
    p.add_argument("--fp16_eval", action="store_true")
    p.add_argument(
        "--amp-opt-level",
        default="O1",
        choices=["O0", "O1", "O2"])
    p.add_argument("--debug", default=True)
    return p.parse_args()


def setup(args, cfg, model, opt):
    if args.use_fp16:
        model, opt = amp.initialize(model, opt, opt_level="O1")
    if cfg.train.amp_opt_level != "O0":
        model, opt = amp.initialize(model, opt, opt_level=cfg.train.amp_opt_level)
    if args.fp16_eval or args.debug:
        model = amp.initialize(model, None, opt_level="O2")
    return model, opt
"""


def _switches(root):
    return [(p, ln, col, rule, host, message)
            for p, ln, col, rule, _cat, host, message in _settings(root, "--no-cache")]


def test_a_comparison_with_not_equal_is_switched_on_by_every_other_word(tmp_path):
    # `if cfg.train.amp_opt_level != "O0":` runs its block for any other level: `amp_opt_level: O1` turns it on,
    # `amp_opt_level: O0` (the one word it excludes, in any case) does not
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "default.yml").write_text("train:\n  epochs: 30\n  amp_opt_level: O1\n")
    (tmp_path / "configs" / "fp32.yml").write_text("train:\n  epochs: 30\n  amp_opt_level: o0\n")
    (tmp_path / "train.py").write_text(APEX_TRAIN.replace('default="O1"', 'default="O0"')
                                       .replace("default=True)", "default=False)"))
    assert _switches(tmp_path) == [
        # the file's Apex AMP calls are one finding (`one-per-file-rules`), at its first call
        ("configs/default.yml", 3, 18, "TRN256", "train.py:20",
         "NVIDIA Apex AMP call (amp.initialize, amp.scale_loss, amp.master_params, amp state): `apex.amp.initialize`; "
         "switched on by `amp_opt_level: O1` at configs/default.yml:3 (read in `cfg.train.amp_opt_level != 'O0'` at "
         "line 21)"),
        # (the import, `from apex import amp`, is a place of the AMP finding: covered-imports)
    ]


def test_an_option_default_that_switches_a_finding_on_is_a_place_of_it(tmp_path):
    # a run without the flag takes the default: `default=True` and a word default the condition accepts are the
    # settings that turn Apex AMP on; a store_true flag (default False) and a generic key (`--debug`) switch nothing.
    # Each is an occurrence of the call it turns on, named in its message
    (tmp_path / "train.py").write_text(APEX_TRAIN)
    # one finding for the file's Apex AMP calls, so both defaults switch it on
    message = ("NVIDIA Apex AMP call (amp.initialize, amp.scale_loss, amp.master_params, amp state): "
               "`apex.amp.initialize`; switched on by `--use_fp16 default=True` at line 8 (read in `args.use_fp16` at "
               "line 19), `--amp-opt-level default='O1'` at line 12 (read in `cfg.train.amp_opt_level != 'O0'` at "
               "line 21)")
    message22 = message
    assert _switches(tmp_path) == [
        ("train.py", 8, 58, "TRN256", "train.py:20", message),
        ("train.py", 12, 17, "TRN256", "train.py:20", message22),  # the file's one Apex AMP finding
        # not the import: Apex's one finding in train.py is its import, at line 3 (one per library per file)
    ]
    # a default the comparison excludes turns nothing on
    (tmp_path / "train.py").write_text(APEX_TRAIN.replace('default="O1"', 'default="O0"')
                                       .replace("default=True)", "default=None)"))
    assert _switches(tmp_path) == []


BENCHMARK_MODEL = """import torch


class Model:
    def __init__(self, opt):
        if opt.resize_mode != "varying":  # inputs of one size: let cuDNN pick its kernels
            torch.backends.cudnn.benchmark = True
        if opt.amp_mode != "off":
            self.scaler = torch.cuda.amp.GradScaler()
"""

BENCHMARK_OPTIONS = """import argparse


def options():
    parser = argparse.ArgumentParser()
    parser.add_argument("--resize_mode", default="fixed")
    parser.add_argument("--amp_mode", default="dynamic")
    return parser.parse_args()
"""


def test_a_not_equal_comparison_of_an_unrelated_option_switches_nothing_on(tmp_path):
    # `opt.resize_mode != "varying"` holds for every other word, so `--resize_mode default="fixed"` would turn the
    # cuDNN flag on; but the option picks the resizing, not the flag (no word of the key is one of the finding), and
    # the flag is reported where it is written. `amp_mode` names the AMP feature it guards
    (tmp_path / "model.py").write_text(BENCHMARK_MODEL)
    (tmp_path / "options.py").write_text(BENCHMARK_OPTIONS)
    assert [(p, ln, r, host) for p, ln, _, r, host, _ in _switches(tmp_path)] == \
        [("options.py", 7, "TRN251", "model.py:9")]


def test_a_block_writing_the_compared_key_is_not_switched_on_by_its_setting(tmp_path):
    # `if cfg.attn_implementation != "flash_attention_2": cfg.attn_implementation = "flash_attention_2"` overrides
    # the setting whatever it is: `attn_implementation: sdpa` in a recipe does not turn that write on
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "run.yaml").write_text("base_model: tiny\nattn_implementation: sdpa\n")
    (tmp_path / "model.py").write_text(
        "class Model:\n    def __init__(self, config):\n"
        "        if config.attn_implementation != 'flash_attention_2':\n"
        "            config.attn_implementation = 'flash_attention_2'\n"
        "        self.config = config\n")
    assert _switches(tmp_path) == []


def test_a_truth_tested_key_is_the_switch_of_the_setting_it_shares_a_name_with(tmp_path):
    # `if args.allow_tf32: torch.backends.cuda.matmul.allow_tf32 = True` writes torch's flag, not the option: the
    # launcher's `--allow_tf32` turns that write on (only a comparison with the key's value is an override)
    (tmp_path / "train.py").write_text(
        "import argparse\n\nimport torch\n\n\ndef main():\n    p = argparse.ArgumentParser()\n"
        "    p.add_argument('--allow_tf32', action='store_true')\n    args = p.parse_args()\n"
        "    if args.allow_tf32:\n        torch.backends.cuda.matmul.allow_tf32 = True\n\n\nmain()\n")
    (tmp_path / "run.sh").write_text("python train.py \\\n    --allow_tf32\n")
    found = _switches(tmp_path)
    assert [(p, line, rule, host) for p, line, _, rule, host, _ in found] == [("run.sh", 2, "TRN261", "train.py:11")]
    assert found[0][5].endswith("switched on by `--allow_tf32` at run.sh:2 (read in `args.allow_tf32` at line 10)")


def test_an_option_default_in_a_file_importing_the_library_adds_no_second_library_finding(tmp_path):
    # train.py imports Apex (its one TRN283 finding) and defines `--amp_level default="O1"`; the default turns on
    # Apex in ckpt.py too, whose import is a TRN283 of its own: the option line gets the AMP call (TRN256), and no
    # second Apex finding in train.py
    (tmp_path / "train.py").write_text(
        "import argparse\n\ntry:\n    from apex import amp\nexcept ImportError:\n    amp = None\n\n\n"
        "def main():\n    parser = argparse.ArgumentParser()\n    parser.add_argument(\"--amp_level\", default=\"O1\")\n"
        "    args = parser.parse_args()\n    if args.amp_level != \"O0\":\n        amp.initialize(None, None)\n"
        "    return args\n")
    (tmp_path / "ckpt.py").write_text(
        "try:\n    from apex import amp\nexcept ImportError:\n    amp = None\n\n\n"
        "def restore(state, config):\n    if config.amp_level != \"O0\":\n        amp.load_state_dict(state[\"amp\"])\n")
    assert [(p, ln, r, host) for p, ln, _, r, host, _ in _switches(tmp_path)] == \
        [("train.py", 11, "TRN256", "train.py:14")]


TRAINER = """import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--half", action="store_true")
parser.add_argument("--bf16", action="store_true")
args = parser.parse_args()
if args.half or args.bf16:
    amp_dtype = torch.float16 if args.half else torch.bfloat16
    if amp_dtype == torch.float16:
        scaler = torch.cuda.amp.GradScaler()
"""


def test_a_bf16_flag_never_switches_on_loss_scaling(tmp_path):
    # the Hugging Face Trainer's shape: the scaler sits under `half or bf16` but is built for float16 only; the
    # `--half` launcher turns it on, the `--bf16` one does not
    (tmp_path / "train.py").write_text(TRAINER)
    (tmp_path / "run_half.sh").write_text("python train.py --half\n")
    (tmp_path / "run_bf16.sh").write_text("python train.py --bf16\n")
    got = [(f[0], f[1], f[3], f[5]) for f in _settings(tmp_path, "--no-cache", "--no-config")]
    assert got == [("run_half.sh", 1, "TRN251", "train.py:12")]


def test_a_bf16_key_alone_in_its_condition_stays_a_switch(tmp_path):
    # jepa: `use_bfloat16` turns on a float16 GradScaler whatever its name says
    (tmp_path / "eval.py").write_text(
        "import argparse\n\nimport torch\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--use_bfloat16', action='store_true')\nargs = parser.parse_args()\n"
        "scaler = torch.cuda.amp.GradScaler() if args.use_bfloat16 else None\n")
    (tmp_path / "run.sh").write_text("python eval.py --use_bfloat16\n")
    got = [(f[0], f[1], f[3], f[5]) for f in _settings(tmp_path, "--no-cache", "--no-config")]
    assert got == [("run.sh", 1, "TRN251", "eval.py:8")]


def test_an_option_default_switches_its_own_program_and_the_modules_it_hands_args_to(tmp_path):
    # pytorch_RVAE / pytorch-cifar100: train.py's `--use-cuda default=True` is the value of train.py's own
    # `args.use_cuda` and of the helper it hands `args` to (utils.py declares no option); sample.py declares its own
    # `--use-cuda` (a store_true, default False), so train.py's default is no value of sample.py's condition
    (tmp_path / "utils.py").write_text(
        "def get_network(args, net):\n    if args.use_cuda:\n        net = net.cuda()\n    return net\n")
    (tmp_path / "train.py").write_text(
        "import argparse\n\nfrom utils import get_network\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--use-cuda', type=bool, default=True)\nargs = parser.parse_args()\n"
        "net = get_network(args, None)\nif args.use_cuda:\n    batch = net.cuda()\n")
    (tmp_path / "sample.py").write_text(
        "import argparse\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--use-cuda', action='store_true')\nargs = parser.parse_args()\n"
        "if args.use_cuda:\n    model = None.cuda()\n")
    got = [(p, ln, rule, host) for p, ln, _, rule, host, _ in _switches(tmp_path)]
    assert got == [("train.py", 6, "TRN241", "train.py:10")]
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    found = {(f["path"], f["line"]): f for f in json.loads(proc.stdout)["findings"]}
    assert set(found) == {("train.py", 10), ("utils.py", 3), ("sample.py", 7)}
    assert found["train.py", 10]["message"].endswith(
        "; switched on by `--use-cuda default=True` at line 6 (read in `args.use_cuda` at line 9)")
    assert "switched on" not in found["sample.py", 7]["message"]
    # without its own `if`, train.py's default turns on the helper's call: a place of that finding
    (tmp_path / "train.py").write_text(
        "import argparse\n\nfrom utils import get_network\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--use-cuda', type=bool, default=True)\nargs = parser.parse_args()\n"
        "net = get_network(args, None)\n")
    got = [(p, ln, rule, host) for p, ln, _, rule, host, _ in _switches(tmp_path)]
    assert got == [("train.py", 6, "TRN241", "utils.py:3")]



def test_an_option_default_of_another_programs_folder_switches_nothing_here(tmp_path):
    # NLP_pytorch_project (fresh76): every program folder has its own config.py with `--do_train default=True`; the
    # folder's train.py is switched on by its own config.py, never by a sibling program's
    for folder in ("classify/dpcnn", "distill/tiny_bert"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "config.py").write_text(
            "import argparse\n\n\ndef set_args():\n    parser = argparse.ArgumentParser()\n"
            "    parser.add_argument('--do_train', default=True)\n    return parser.parse_args()\n")
    (tmp_path / "classify" / "dpcnn" / "train.py").write_text(
        "from apex import amp\nfrom config import set_args\n\nargs = set_args()\nif args.do_train:\n"
        "    model, opt = amp.initialize(None, None)\n")
    got = [(p, ln, rule, host) for p, ln, _, rule, host, _ in _switches(tmp_path)]
    assert got == [("classify/dpcnn/config.py", 6, "TRN256", "classify/dpcnn/train.py:6")]

NESTED = """import argparse

parser = argparse.ArgumentParser()
parser.add_argument('--cuda', action='store_true')
parser.add_argument('--fp16', action='store_true')
args = parser.parse_args()
if args.fp16:
    if not args.cuda:
        args.fp16 = False
    else:
        try:
            from apex.fp16_utils import FP16_Optimizer
        except ImportError:
            args.fp16 = False
"""


def test_a_key_inside_the_block_of_a_key_nothing_sets_turns_nothing_on(tmp_path):
    # transformer-xl: every launcher passes `--cuda`, none `--fp16`; the Apex import sits in the `else` of
    # `if not args.cuda:` inside `if args.fp16:`, so no shipped run imports it: it stays guarded (it has a fallback)
    (tmp_path / "train.py").write_text(NESTED)
    (tmp_path / "run_base.sh").write_text("python train.py \\\n    --cuda \\\n    --lr 0.1\n")
    assert _settings(tmp_path, "--no-cache", "--no-config") == []
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--no-config", "--show-guarded", cwd=tmp_path)
    assert [(f["line"], f["rule"], f["guarded"]) for f in json.loads(proc.stdout)["findings"]
            if f["rule"] == "TRN283"] == [(12, "TRN283", True)]
    # a launcher passing `--fp16` as well switches the outer block on: `--cuda` then picks the Apex arm
    (tmp_path / "run_fp16.sh").write_text("python train.py --cuda --fp16\n")
    got = [(p, ln, rule, host) for p, ln, _, rule, _, host, _ in _settings(tmp_path, "--no-cache", "--no-config")]
    assert ("run_fp16.sh", 1, "TRN283", "train.py:12") in got


def test_a_setting_reported_by_its_own_rule_is_a_place_of_the_code_it_switches_on(tmp_path):
    # UNITER (fresh61): `"fp16": true` in a training config is TRN254's, and train_itm.py turns apex on with it
    # (`amp.initialize(..., enabled=opts.fp16)`, TRN256): one thing, at the call, with the config line its place
    # (the program whose name shares most words with the config's takes it: train_itm.py, not train_vqa.py)
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "train-itm-flickr-base-8gpu.json").write_text(
        '{\n    "model_config": "bert-base",\n    "train_batch_size": 32,\n    "fp16": true\n}\n')
    program = ("import torch\nfrom apex import amp\n\n\ndef build(opts, model, optimizer):\n"
               "    model, optimizer = amp.initialize(model, optimizer, enabled=opts.fp16, opt_level='O2')\n"
               "    return model, optimizer\n")
    (tmp_path / "train_itm.py").write_text(program)
    (tmp_path / "train_vqa.py").write_text(program)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--exit-zero", cwd=tmp_path)
    found = json.loads(proc.stdout)["findings"]
    assert [f for f in found if f["path"].endswith(".json")] == []
    host = [f for f in found if f["rule"] == "TRN256" and f["path"] == "train_itm.py"]
    assert [(f["line"], [(o["path"], o["line"]) for o in f["elsewhere"]]) for f in host] == [
        (6, [("config/train-itm-flickr-base-8gpu.json", 4)])]
    assert host[0]["message"].endswith("; switched on by `fp16: true` at config/train-itm-flickr-base-8gpu.json:4 "
                                       "(read in `opts.fp16` at line 6)")


def test_a_read_handed_on_under_another_name_switches_the_callee_parameter(tmp_path):
    # MixFormer: `use_amp = getattr(cfg.TRAIN, "AMP", False)` handed on as `LTRTrainer(use_amp=use_amp)`, whose
    # `if not self.use_amp: ... else: with autocast():` the experiment's `AMP: true` turns on
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "large.yaml").write_text(
        "MODEL:\n  HIDDEN_DIM: 1024\nTRAIN:\n  AMP: true\n  BATCH_SIZE: 12\n")
    (tmp_path / "experiments" / "small.yaml").write_text(
        "MODEL:\n  HIDDEN_DIM: 256\nTRAIN:\n  AMP: false\n  BATCH_SIZE: 32\n")
    (tmp_path / "trainer.py").write_text(
        "from torch.cuda.amp import autocast\n\n\nclass Trainer:\n    def __init__(self, model, use_amp=False):\n"
        "        self.model = model\n        self.use_amp = use_amp\n\n    def step(self, x):\n"
        "        if not self.use_amp:\n            return self.model(x)\n        else:\n"
        "            with autocast():\n                return self.model(x)\n")
    (tmp_path / "train_script.py").write_text(
        "from trainer import Trainer\n\n\ndef run(cfg, model):\n    use_amp = getattr(cfg.TRAIN, 'AMP', False)\n"
        "    return Trainer(model, use_amp=use_amp)\n")
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    got = [(f["path"], f["line"], f["rule"], [(e["path"], e["line"]) for e in f.get("elsewhere", ())])
           for f in json.loads(proc.stdout)["findings"] if f["category"] == "cuda-amp"]
    assert got == [("trainer.py", 13, "TRN251", [("experiments/large.yaml", 4)])]
    # without the hand-over the parameter is only a name: the setting switches nothing
    (tmp_path / "train_script.py").write_text(
        "from trainer import Trainer\n\n\ndef run(cfg, model):\n    return Trainer(model, use_amp=True)\n")
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    assert [f.get("elsewhere", []) for f in json.loads(proc.stdout)["findings"] if f["category"] == "cuda-amp"] \
        == [[]]


def test_handed_reads_are_noted_per_keyword():
    import ast

    from trnready.project.switch_conditions import handed_reads

    tree = ast.parse("a = cfg.get('AMP')\nb = cfg['fp16_run']\nb = 1\nf(use_amp=a, half=b, fp16=cfg.get('fp16'),"
                     " direct=getattr(opt, 'FUSED', 0), env=os.environ.get('X'), same=a)\n")
    assert handed_reads(tree) == [["direct", "fused"], ["same", "amp"], ["use_amp", "amp"]]


def test_an_integer_switch_defaulting_to_one_is_a_true_default(tmp_path):
    # CroCo: `--amp type=int default=1 choices=[0,1]`, read as `autocast(enabled=bool(args.amp))`; an integer option
    # of other choices (a count) defaulting to 1 switches nothing
    (tmp_path / "pretrain.py").write_text(
        "import argparse\n\nimport torch\n\np = argparse.ArgumentParser()\n"
        "p.add_argument('--amp', type=int, default=1, choices=[0, 1])\n"
        "p.add_argument('--fused', type=int, default=1, choices=[1, 2, 4])\nargs = p.parse_args()\n\n\n"
        "def step(model, x):\n    with torch.cuda.amp.autocast(enabled=bool(args.amp)):\n        return model(x)\n\n\n"
        "def fuse(model):\n    if args.fused:\n        torch.backends.cudnn.benchmark = True\n\n\n"
        "if __name__ == '__main__':\n    fuse(step(None, None))\n")
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    got = {f["line"]: [(o["line"], o["column"]) for o in f.get("occurrences", ())]
           for f in json.loads(proc.stdout)["findings"] if f["rule"] in ("TRN251", "TRN261")}
    assert got == {12: [(6, 43)], 18: []}
