"""Engine changes made for accuracy: not-equals, chained aliases, keyword locations, device stores."""
import textwrap

import pytest

from trnready.api import scan_text
from trnready.catalogue import CatalogueDeprecation, CatalogueError, load_catalogue
from trnready.match import Engine
from trnready.resolve import Resolver

ENGINE = Engine(load_catalogue())


def fired(code):
    findings, diag = scan_text(textwrap.dedent(code), "t.py", ENGINE)
    assert diag is None
    return sorted((f.rule, f.line) for f in findings)


@pytest.mark.parametrize("call,hit", [
    ("mha(q, k, v, attn_mask=m)", True),  # is_causal defaults to False
    ("mha(q, k, v, attn_mask=m, is_causal=True)", False),  # literally True: causal
    ("mha(q, k, v, attn_mask=m, is_causal=False)", True),
    ("mha(q, k, v, attn_mask=m, is_causal=flag)", True),  # unknown: not certainly True
    ("mha(q, k, v, attn_mask=m, **kw)", False),  # hidden behind **kwargs: never guess
    ("mha(q, k, v, attn_mask=None, is_causal=flag)", False),
])
def test_not_equals_is_not_literally_the_value(call, hit):
    code = f"import torch.nn as nn\nmha = nn.MultiheadAttention(8, 2)\nout = {call}\n"
    assert (("TRN172", 3) in fired(code)) is hit


def one_rule_catalogue(path, match: str, category: str = "attention-mask", severity: str = "blocker",
                       examples: str = '{ hit = ["f(a=1)"], clean = ["f(a=True)"] }'):
    """Write a one-rule catalogue whose only [[rule.match]] table is `match` (TOML lines)."""
    path.write_text(textwrap.dedent(f'''
        [catalogue]
        version = "1"
        [[rule]]
        id = "TRN999"
        name = "x"
        category = "{category}"
        severity = "{severity}"
        title = "t"
        why = "w"
        fix = "f"
        source = [{{ title = "s", url = "https://example.com/s" }}]
        docs = "https://example.com"
        examples = {examples}
        [[rule.match]]
    ''') + textwrap.dedent(match))
    return path


def test_not_equals_is_a_known_operator(tmp_path):
    cat = one_rule_catalogue(tmp_path / "c.toml", '''
        call = ["f"]
        args = [{ name = "a", not-equals = true }]
    ''')
    assert load_catalogue(cat).rules[0].matchers[0].args[0].op == "not-equals"
    cat.write_text(cat.read_text().replace("not-equals", "unequal"))
    with pytest.raises(CatalogueError):
        load_catalogue(cat)


def test_aliases_compose():
    r = Resolver({"torch.quantization": "torch.ao.quantization",
                  "torch.ao.quantization.observer": "torch.ao.quantization"})
    assert r.canonical("torch.quantization.observer.PerChannelMinMaxObserver") == \
        "torch.ao.quantization.PerChannelMinMaxObserver"
    assert r.canonical("torch.quantization") == "torch.ao.quantization"
    loop = Resolver({"a": "b", "b": "a"})
    assert loop.canonical("a.x") in ("a.x", "b.x")  # bounded, never hangs


def test_keyword_findings_point_at_the_keyword_line():
    code = '''
    from transformers import AutoModelForCausalLM
    m = AutoModelForCausalLM.from_pretrained(
        name,
        attn_implementation="flash_attention_2",
    )
    '''
    # TRN702 (repository-level: HF loading without HF_DEACTIVATE_ASYNC_LOAD) is not about this line.
    assert [f for f in fired(code) if f[0] != "TRN702"] == [("TRN282", 5)]


def test_callee_and_keyword_matchers_report_a_call_once():
    code = '''
    import torch.nn as nn
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2), 2, enable_nested_tensor=False)
    y = enc(x, src_key_padding_mask=pad)
    '''
    assert fired(code) == [("TRN173", 4)]


@pytest.mark.parametrize("code,expected", [
    ('cfg.MODEL.DEVICE = "cuda"', [("TRN242", 1)]),
    ('self_device: str = "cuda:1"', [("TRN242", 1)]),
    ('opts["device"] = "cuda"', [("TRN242", 1)]),
    ('c = {"device": "cuda", "n": 1}', [("TRN242", 1)]),
    ('import argparse\np = argparse.ArgumentParser()\np.add_argument("--device", default="cuda")', [("TRN242", 3)]),
    ('x.to("cuda:{}".format(rank))', [("TRN242", 1)]),
    ('x.to("cuda:%d" % rank)', [("TRN242", 1)]),
    ('cfg.MODEL.NAME = "cuda"', []),
    ('c = {"kind": "cuda"}', []),
    ('label = "cuda:{}".format(rank)', []),
    ('is_gpu = cfg.DEVICE == "cuda"', []),
    ('import argparse\np = argparse.ArgumentParser()\np.add_argument("--backend", default="cuda")', []),
    # an option named for the GPU defaulting to a CUDA device string selects it when not passed (session 26:
    # `--gpu_type` default "cuda", blind28); a default that is no device string is not one
    ('import argparse\np = argparse.ArgumentParser()\np.add_argument("--gpu_type", default="cuda")', [("TRN242", 3)]),
    ('import argparse\np = argparse.ArgumentParser()\np.add_argument("--gpu-backend", default="cuda:0")', [("TRN242", 3)]),
    ('import argparse\np = argparse.ArgumentParser()\np.add_argument("--gpu_type", default="mps")', []),
    ('import argparse\np = argparse.ArgumentParser()\np.add_argument("--gpu_note", default="cuda graphs")', []),
])
def test_device_strings_stored_under_device_names(code, expected):
    assert fired(code) == expected


@pytest.mark.parametrize("init,expected", [
    ('self.mode = mode', [("TRN191", 8)]),  # parameter default "bilinear" flows through self
    ('self.mode = "nearest"', []),
    ('self.mode = pick_mode()', []),  # a call result: unknown, never guessed
    ('self.mode, self.k = mode, 2', []),  # tuple targets: unknown
])
def test_self_attributes_are_followed(init, expected):
    code = f'''
    import torch.nn.functional as F
    class Up:
        def __init__(self, mode="bilinear"):
            {init}
        def forward(self, x):
            y = 1
            return F.interpolate(x, scale_factor=2, mode=self.mode)
    '''
    assert fired(code) == expected


def test_collections_under_device_names_are_not_devices():
    assert fired('supported_device = ("xpu", "cuda", "xla")\nDEVICES = ["cuda:0", "cuda:1"]\n') == []


def test_unless_parameter_keeps_project_apis_out_of_keyword_fallbacks():
    wrapper = '''
    class Enc:
        def forward(self, src, src_key_padding_mask=None):
            return src
    y = enc(x, src_key_padding_mask=pad)
    '''
    assert fired(wrapper) == []
    plain = '''
    for layer in layers:
        y = layer(x, src_key_padding_mask=pad)
    '''
    assert fired(plain) == [("TRN173", 3)]


def test_unless_parameter_is_validated(tmp_path):
    cat = tmp_path / "c.toml"
    one_rule_catalogue(cat, 'keyword = ["a"]\nunless-parameter = true\n')
    with pytest.warns(CatalogueDeprecation, match="unless-parameter.*own-parameter"):
        assert load_catalogue(cat).rules[0].matchers[0].unless == ("own-parameter",)
    one_rule_catalogue(cat, 'call = ["f"]\nunless-parameter = true\n')
    with pytest.raises(CatalogueError, match="keyword matchers only"), pytest.warns(CatalogueDeprecation):
        load_catalogue(cat)


# -- audit on real repositories (detectron2, fairseq, timm, peft, accelerate, diffusers, torchtitan) ------------

def _mha_module(build, call):
    return f'''
    import torch.nn as nn
    def make_attn(d):
        return nn.MultiheadAttention(d, 4)
    def make_other(d):
        return Other(d)
    class Block(nn.Module):
        def __init__(self, d):
            {build}
        def forward(self, x, pad):
            {call}
    '''


@pytest.mark.parametrize("build,call,hit", [
    ("self.a = make_attn(d)", "return self.a(x, x, x, key_padding_mask=pad)", True),
    ("self.a = make_other(d)", "return self.a(x, x, x, key_padding_mask=pad)", False),
    ("self.a = nn.ModuleList([nn.MultiheadAttention(d, 2) for _ in range(3)])",
     "return self.a[0](x, x, x, key_padding_mask=pad)", True),
    ("self.a = nn.ModuleList([nn.MultiheadAttention(d, 2) for _ in range(3)])",
     "for blk in self.a: x = blk(x, x, x, key_padding_mask=pad)", True),
    ("self.a = nn.ModuleList([make_attn(d), make_attn(d)])",
     "for i, blk in enumerate(self.a): x = blk(x, x, x, key_padding_mask=pad)", True),
    ("self.a = nn.ModuleList([nn.LayerNorm(d) for _ in range(3)])",
     "for blk in self.a: x = blk(x, x, x, key_padding_mask=pad)", False),
    ("self.a = [nn.MultiheadAttention(d, 2)]", "return self.a[0](x, x, x, key_padding_mask=pad)", True),
    ("self.a = nn.MultiheadAttention(d, 2)",
     "return (lambda t: self.a(t, t, t, key_padding_mask=pad))(x)", True),
])
def test_instances_built_by_helpers_and_held_in_containers(build, call, hit):
    findings = fired(_mha_module(build, call))
    assert (any(r == "TRN172" for r, _ in findings)) is hit


def test_closures_inside_methods_see_self():
    code = '''
    import torch.nn as nn
    class Block(nn.Module):
        def __init__(self, d):
            self.a = nn.MultiheadAttention(d, 2)
        def forward(self, x, pad):
            def run(t):
                return self.a(t, t, t, key_padding_mask=pad)
            return run(x)
    '''
    assert fired(code) == [("TRN172", 8)]


@pytest.mark.parametrize("code,hit", [
    ("t = x.numpy()\nt.nonzero()", False),
    ("t = x.cpu().numpy()\nt.nonzero()", False),
    ("import cv2\nn, lab, st, c = cv2.connectedComponentsWithStats(m)\n(lab == 1).nonzero()", False),
    ("import numpy as np\nnp.median(mask.nonzero(), axis=1)", False),
    ("import numpy as np\nnp.split(t, (t == 2).nonzero()[0] + 1)", False),
    ("import numpy as np\nimport torch\nrows = torch.stack(mask.nonzero(as_tuple=True))", True),
    ("import torch\na, b = torch.sort(x)\nb.nonzero()", True),
    ("x.nonzero()", True),
])
def test_numpy_receivers_and_consumers(code, hit):
    assert (any(r == "TRN104" for r, _ in fired(code))) is hit


@pytest.mark.parametrize("code,hit", [
    ("import torch\nold = torch.backends.cuda.matmul.allow_tf32", False),
    ("import torch\nif torch.backends.cudnn.benchmark:\n    pass", False),
    ("import torch\nprint(f'{torch.backends.cudnn.allow_tf32=}')", False),
    ("import torch\ntorch.backends.cuda.matmul.allow_tf32 = True", True),
    ("import torch\ntorch.backends.cudnn.benchmark |= True", True),
    ("import torch\nwith torch.backends.cudnn.flags(enabled=False):\n    pass", True),
    ("from torch.backends.cuda import sdp_kernel\nwith sdp_kernel(enable_flash=False):\n    pass", True),
])
def test_backend_flag_reads_are_not_settings(code, hit):
    assert (any(r == "TRN261" for r, _ in fired(code))) is hit


@pytest.mark.parametrize("code,hit", [
    ('import os\nt = os.environ.get("PJRT_DEVICE", "") == "TPU"', False),
    ('import os\nt = os.getenv("PJRT_DEVICE").lower() == "tpu"', False),
    ('import os\nt = os.environ["PJRT_DEVICE"] in ("CPU", "CUDA")', False),
    ('import os\nos.environ["PJRT_DEVICE"] = "TPU"', False),
    ('import os\nos.environ.setdefault("PJRT_DEVICE", "CPU")', False),
    ('import os\nos.environ["PJRT_DEVICE"] = "NEURON"', True),
    ('import os\nt = os.environ.get("PJRT_DEVICE") == "NEURON"', True),
    ('import os\nt = os.environ.get("PJRT_DEVICE")', True),
    ('import os\nt = os.environ.get("XLA_USE_BF16") == "TPU"', True),  # unless-value is per matcher
])
def test_pjrt_device_checks_for_other_platforms(code, hit):
    assert (any(r == "TRN222" for r, _ in fired(code))) is hit


@pytest.mark.parametrize("code,expected", [
    ('kw = {"attn_implementation": "flash_attention_2"}', [("TRN282", 1)]),
    ('cfg._attn_implementation = "flash_attention_3"', [("TRN282", 1)]),
    ('kw["load_in_4bit"] = True', [("TRN286", 1)]),
    ('IMPL = "flash_attention_2"\ncfg.attn_implementation = IMPL', [("TRN282", 2)]),
    ('import argparse\np = argparse.ArgumentParser()\np.add_argument("--attn-implementation", default="flash_attention_2")',
     [("TRN282", 3)]),
    ('kw = {"attn_implementation": "sdpa"}', []),
    ('ok = cfg._attn_implementation == "flash_attention_2"', []),
    ('cfg.attn_implementation = impl', []),
    ('kw = {"backend": "nccl"}', []),  # `backend` is a keyword matcher without stores
])
def test_keyword_values_stored_in_configs(code, expected):
    assert fired(code) == expected


@pytest.mark.parametrize("code,expected", [
    ('import torch\nd = torch.accelerator.current_accelerator().type if hasattr(torch, "accelerator") else "cuda"\n'
     'x = torch.zeros(2, device=d)', []),
    ('import torch\nd = "cuda" if torch.accelerator.is_available() else "cpu"\nx = torch.zeros(2, device=d)',
     [("TRN242", 2)]),
])
def test_hasattr_accelerator_fallback_never_runs_on_torchneuron(code, expected):
    assert fired(code) == expected


def test_mode_looked_up_in_a_table():
    code = '''
    import torch.nn.functional as F
    MODES = {0: "nearest", 2: "bilinear"}
    NEAR = {"a": "nearest"}
    def up(x, k):
        y = F.interpolate(x, scale_factor=2, mode=MODES[k])
        return F.interpolate(y, scale_factor=2, mode=NEAR[k])
    '''
    assert fired(code) == [("TRN191", 6)]


@pytest.mark.filterwarnings("ignore::trnready.catalogue.CatalogueDeprecation")
@pytest.mark.parametrize("key,bad", [("unless-value", '"TPU"'), ("writes-only", '"yes"'), ("stores", "1"),
                                     ("unless-guarded", "true"), ("writes-only", "true")])
def test_new_matcher_keys_are_validated(tmp_path, key, bad):
    cat = one_rule_catalogue(tmp_path / "c.toml", f'call = ["f"]\n{key} = {bad}\n')
    with pytest.raises(CatalogueError):
        load_catalogue(cat)


@pytest.mark.parametrize("code,expected", [
    # the uses fold into the import's finding as its occurrences (one per library per file: test_one_per_thing)
    ("import torch_xla.core.xla_model as xm\nd = xm.xla_device()\nxm.mark_step()", [("TRN221", 1)]),
    ("try:\n    import torch_xla.core.xla_model as xm\nexcept ImportError:\n    xm = None\nxm.mark_step()",
     [("TRN221", 2)]),
    ("if is_torch_xla_available():\n    import torch_xla.core.xla_model as xm\nxm.mark_step()", [("TRN221", 2)]),
])
def test_xla_uses_are_reported_unless_the_import_is_optional(code, expected):
    assert fired(code) == expected


@pytest.mark.parametrize("guard,hit", [
    ("if torch.cuda.is_available():", False),
    ("if use_tf32 and torch.cuda.is_available():", False),
    ('if x.device.type == "cuda":', False),
    ('if args.device.startswith("cuda"):', False),
    ("if args.cuda:", False),
    ("if not torch.cuda.is_available():", True),
    ("if use_tf32 or torch.cuda.is_available():", True),
    ("if use_tf32:", True),
])
def test_unless_cuda_checked_option(tmp_path, guard, hit):
    # Not used by the built-in catalogue (TRN261 reports guarded writes); available to team catalogues.
    cat = one_rule_catalogue(
        tmp_path / "c.toml", 'reference = ["torch.backends.cuda.matmul"]\nunless = ["cuda-checked"]\n',
        category="cuda-backend-flags", severity="change",
        examples='{ hit = ["import torch\\ntorch.backends.cudnn.benchmark = True"], clean = ["x = 1"] }')
    engine = Engine(load_catalogue(cat))
    code = f"import torch\n{guard}\n    torch.backends.cuda.matmul.allow_tf32 = True\n"
    findings, _ = scan_text(code, "t.py", engine)
    assert (any(f.line == 3 for f in findings)) is hit
    assert ("TRN261", 3) in fired(code)  # the built-in rule reports the write either way


def test_type_checking_imports_never_run():
    code = '''
    from typing import TYPE_CHECKING
    if TYPE_CHECKING:
        from torchao.float8 import Float8LinearConfig
        import torch_xla.core.xla_model as xm
    import torchao
    '''
    assert fired(code) == [("TRN201", 6)]


def test_return_annotations_are_not_uses():
    code = '''
    import torch
    def side() -> torch.cuda.Stream:
        return torch.cuda.Stream()
    '''
    assert fired(code) == [("TRN243", 4)]


@pytest.mark.parametrize("body,expected", [
    ('MODE = "bilinear"', [("TRN191", 6)]),
    ('MODE = "nearest"', []),
    ('MODE = "nearest"\n        def __init__(self):\n            self.MODE = "bicubic"', [("TRN191", 8)]),
])
def test_class_attributes_read_through_self(body, expected):
    code = f'''
    import torch.nn.functional as F
    class Up:
        {body}
        def forward(self, x):
            return F.interpolate(x, scale_factor=2, mode=self.MODE)
    '''
    assert fired(code) == expected


@pytest.mark.parametrize("code,expected", [
    ('impl = "flash_attention_2" if is_flash_attn_2_available() else "sdpa"\nm = M.from_pretrained(n, attn_implementation=impl)',
     []),
    ('impl = "flash_attention_2" if utils.is_flash_attn_greater_or_equal_2_10() else "sdpa"\n'
     'm = M.from_pretrained(n, attn_implementation=impl)', [("TRN282", 2)]),
    ('impl = "flash_attention_2" if use_fa2 else "sdpa"\nm = M.from_pretrained(n, attn_implementation=impl)',
     [("TRN282", 2)]),
    ('cfg._flash_attn_2_enabled = True', [("TRN282", 1)]),
])
def test_cuda_only_library_fallbacks(code, expected):
    assert fired(code) == expected


@pytest.mark.parametrize("code,expected", [
    ('import torch\nok = x.device == torch.device("cuda:0")', []),
    ('import torch\nassert get_device() == torch.device("cuda", 3)', []),
    ('import torch\ny = x.to(torch.device("cuda"))', [("TRN242", 2)]),
])
def test_device_comparisons_are_checks(code, expected):
    assert fired(code) == expected


def test_getattr_string_default_is_a_written_default():
    import ast

    from trnready.resolve import env_default

    def default(src):
        d = env_default(ast.parse(src).body[0].value)
        return None if d is None else d.value

    assert default('getattr(opts, "ddp.backend", "nccl")') == "nccl"
    assert default('getattr(opts, key, "nccl")') is None  # a name computed at run time
    assert default('getattr(opts, "ddp.backend", fallback)') is None
    assert default('getattr(opts, "ddp.backend")') is None
