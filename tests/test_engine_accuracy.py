"""Engine changes made for accuracy: not-equals, chained aliases, keyword locations, device stores."""
import textwrap

import pytest

from trnready.api import scan_text
from trnready.catalogue import CatalogueError, load_catalogue
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


def test_not_equals_is_a_known_operator(tmp_path):
    cat = tmp_path / "c.toml"
    cat.write_text(textwrap.dedent('''
        [catalogue]
        version = "1"
        [[rule]]
        id = "TRN999"
        name = "x"
        category = "attention-mask"
        severity = "blocker"
        title = "t"
        why = "w"
        fix = "f"
        source = "s"
        docs = "https://example.com"
        examples = { hit = ["f(a=1)"], clean = ["f(a=True)"] }
        [[rule.match]]
        call = ["f"]
        args = [{ name = "a", not-equals = true }]
    '''))
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
    body = textwrap.dedent('''
        [catalogue]
        version = "1"
        [[rule]]
        id = "TRN999"
        name = "x"
        category = "attention-mask"
        severity = "blocker"
        title = "t"
        why = "w"
        fix = "f"
        source = "s"
        docs = "https://example.com"
        examples = { hit = ["f(a=1)"], clean = ["f(a=True)"] }
        [[rule.match]]
        KIND
        unless-parameter = true
    ''')
    cat.write_text(body.replace("KIND", 'keyword = ["a"]'))
    assert load_catalogue(cat).rules[0].matchers[0].unless_parameter
    cat.write_text(body.replace("KIND", 'call = ["f"]'))
    with pytest.raises(CatalogueError, match="keyword matchers only"):
        load_catalogue(cat)
