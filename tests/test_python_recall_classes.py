"""Classes of Python blockers found by the blind recall labels of issue 14: masks known by their name or kept
through reshapes, device-type checks that assert or pick a precision, CUDA-only autocast queries, the calls
of an optionally imported library. Each test has the hit and the look-alike that must stay unreported."""
import json

from conftest import run_cli, scan_findings

MASK_NAMED = "Indexing with `{}`, a mask by its name: a boolean mask keeps one row per True value, a size known " \
             "only at run time"
MASK = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"
CUDA_STRING = '"cuda" device string: `cuda`'

MASKS = '''import torch


def masked_ce(logits, targets, mask):
    for k in range(targets.shape[1]):
        targets_k = targets[:, k].contiguous().view(-1)
        mask_k = mask[:, k, ...].contiguous().view(-1)
        kept = targets_k[mask_k]
    return kept


def unpad(tensor, input_mask):
    return tensor[input_mask]


def route(hidden, routing, e):
    expert_mask = (routing == e).any(dim=-1)
    return hidden[expert_mask]
'''

MASK_LOOK_ALIKES = '''import torch


def gather(x, mask_idx, keep_ids, valid):
    a = x[mask_idx]                     # positions, by the name
    b = x[keep_ids]
    keep = torch.argsort(x)[:4]         # integer positions, by the assignment
    c = x[keep]
    x[valid] = 0                        # an assignment keeps the shape of x
    any_masked = (x == 0).any()
    d = x[any_masked]                   # one truth value, not a mask
    return a, b, c, d


def token(embed, mask_token):
    return embed[mask_token]
'''


def test_a_mask_by_name_or_kept_through_reshapes_is_reported(tmp_path):
    (tmp_path / "loss.py").write_text(MASKS)
    found = [f[:5] for f in scan_findings(tmp_path) if f[3] == "TRN104"]
    assert found == [
        ("loss.py", 8, 16, "TRN104", MASK_NAMED.format("mask_k")),
        ("loss.py", 13, 12, "TRN104", MASK_NAMED.format("input_mask")),
        ("loss.py", 18, 12, "TRN104", MASK),  # `.any(dim=-1)` of a comparison
    ]


def test_names_of_positions_ids_and_assignments_are_not_masks(tmp_path):
    (tmp_path / "gather.py").write_text(MASK_LOOK_ALIKES)
    assert [f for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN104"] == []


def test_a_mask_name_in_a_file_without_torch_is_not_reported(tmp_path):
    (tmp_path / "table.py").write_text("def pick(rows, mask):\n    return rows[mask]\n")
    assert scan_findings(tmp_path, "--show-guarded") == []


DEVICE_TYPE = '''import torch


class Precond(torch.nn.Module):
    def forward(self, x, use_fp16=True):
        dtype = torch.float16 if (use_fp16 and x.device.type == 'cuda') else torch.float32
        return x.to(dtype)


class Rotary(torch.nn.Module):
    def forward(self, x):
        assert self.freqs.device.type == "cuda"
        return x * self.freqs
'''

DEVICE_TYPE_LOOK_ALIKES = '''import torch


def dispatch(c, kernel, fallback):
    if c.device.type == 'cuda':         # the other arm is the portable path
        return kernel(c)
    return fallback(c)


def sync(x):
    assert x.device.type != "cuda"      # holds on Neuron
    device = x.device.type if x.device.type == "cuda" else "cpu"
    return device


def cast(x):
    dtype = torch.float16 if x.device.type == "cpu" else torch.float32
    return x.to(dtype)
'''


def test_a_device_type_that_is_asserted_or_picks_a_precision_is_reported(tmp_path):
    (tmp_path / "networks.py").write_text(DEVICE_TYPE)
    found = [f[:5] for f in scan_findings(tmp_path) if f[3] == "TRN242"]
    assert found == [
        ("networks.py", 6, 65, "TRN242", CUDA_STRING),
        ("networks.py", 12, 42, "TRN242", CUDA_STRING),
    ]


def test_a_device_type_check_that_chooses_a_code_path_is_not_reported(tmp_path):
    (tmp_path / "dispatch.py").write_text(DEVICE_TYPE_LOOK_ALIKES)
    assert [f for f in scan_findings(tmp_path) if f[3] == "TRN242"] == []


AUTOCAST = '''import torch


def save_state(ctx):
    ctx.kwargs = {"enabled": torch.is_autocast_enabled(), "dtype": torch.get_autocast_gpu_dtype()}


def cast_weights(w):
    if torch.is_autocast_enabled():
        w = w.to(dtype=torch.get_autocast_gpu_dtype())
    return w


def cast_any(w, x):
    if torch.is_autocast_enabled(x.device.type):
        w = w.to(dtype=torch.get_autocast_gpu_dtype())
    return w
'''
AUTOCAST_MSG = "Autocast state or dtype read or set for the CUDA device only: `torch.get_autocast_gpu_dtype`"
ENABLED_MSG = "Autocast state or dtype read or set for the CUDA device only: `torch.is_autocast_enabled`"


def test_the_cuda_autocast_dtype_is_reported_and_guarded_under_the_cuda_autocast_check(tmp_path):
    (tmp_path / "amp_state.py").write_text(AUTOCAST)
    found = [f for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN255"]
    assert found == [
        # one finding per category per line: the first call of line 5 is kept, the dtype call is a place of it
        ("amp_state.py", 5, 30, "TRN255", ENABLED_MSG, False),
        # torch.is_autocast_enabled() with no device answers for CUDA: the check is reported, and the code under it
        # (False inside a Neuron autocast region) is guarded
        ("amp_state.py", 9, 8, "TRN255", ENABLED_MSG, False),
        ("amp_state.py", 10, 24, "TRN255", AUTOCAST_MSG, True),
        ("amp_state.py", 16, 24, "TRN255", AUTOCAST_MSG, False),  # the device is asked: the dtype call runs
    ]


XFORMERS = '''try:
    import xformers
    import xformers.ops
except ImportError:
    xformers = None


class MemoryEfficientCrossAttention:
    def forward(self, q, k, v):
        return xformers.ops.memory_efficient_attention(q, k, v)
'''


def test_the_attention_call_of_an_optional_xformers_import_is_reported(tmp_path):
    (tmp_path / "attention.py").write_text(XFORMERS)
    found = [(f[1], f[2], f[4], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN284"]
    assert found == [
        (2, 5, "xFormers: `xformers` (optional import: guarded by try/except or an availability check)", True),
        (10, 16, "xFormers: `xformers.ops.memory_efficient_attention`", False),  # no fallback in the class
    ]


DEFAULTS = '''import os

import torch


class ParallelContext:
    def __init__(self, tp: int, backend: str = "nccl"):
        assert backend == "nccl", "Only nccl backend is supported for now."
        self.tp = tp


class SSMKernel:
    def __init__(self, d_state: int = 64, backend: str = "cuda"):
        self.backend = backend


def init_distributed():
    backend = 'gloo' if os.name == 'nt' else 'nccl'
    torch.distributed.init_process_group(backend=backend, init_method='env://')


def bip(duration=0.5, device="cuda"):
    return torch.zeros(int(duration * 100))
'''
NCCL_AT = "Distributed process group on NCCL: `backend`"
NCCL_IFEXP = "Distributed process group on NCCL: `torch.distributed.init_process_group` (`backend` may be 'nccl' or " \
             "'gloo')"


def test_parameter_defaults_asserted_values_and_conditional_literals_are_reported(tmp_path):
    (tmp_path / "context.py").write_text(DEFAULTS)
    found = [f[1:5] for f in scan_findings(tmp_path) if f[3] in ("TRN271", "TRN248", "TRN242")]
    assert found == [
        (7, 48, "TRN271", NCCL_AT),
        (8, 27, "TRN271", NCCL_AT),
        (13, 58, "TRN248", 'Implementation backend chosen by the name "cuda": `backend`'),
        (19, 5, "TRN271", NCCL_IFEXP),  # the call reads the choice ...
        (22, 30, "TRN242", CUDA_STRING),  # a device default, even where the body does not read it
    ]
    # ... and the literal the conditional expression picks is listed among the finding's places
    report = json.loads(run_cli("scan", tmp_path, "--format", "json", "--no-cache").stdout)
    ifexp = next(f for f in report["findings"] if f["rule"] == "TRN271" and f["line"] == 19)
    assert ifexp["occurrences"] == [{"line": 18, "column": 46, "rule": "TRN271"}]


DEFAULT_LOOK_ALIKES = '''import torch


class ParallelContext:
    def __init__(self, tp: int, backend: str = "gloo"):
        assert backend != "nccl"
        assert backend in ("gloo", "neuron")
        self.tp = tp


def pick(device="cpu", backend_name="cuda"):
    return device, backend_name
'''


def test_other_defaults_and_negative_asserts_are_not_reported(tmp_path):
    (tmp_path / "context.py").write_text(DEFAULT_LOOK_ALIKES)
    assert [f for f in scan_findings(tmp_path) if f[3] in ("TRN271", "TRN248", "TRN242")] == []


CUPY = '''import torch

try:
    from cupy.cuda import function
    _available = True
except ImportError:
    _available = False


class UnICORNN(torch.nn.Module):
    def __init__(self):
        if not _available:
            raise ImportError("Requires cupy.")
        super().__init__()
'''


def test_an_optional_import_whose_flag_the_model_demands_stays_a_finding(tmp_path):
    (tmp_path / "unicornn.py").write_text(CUPY)
    found = [(f[1], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded")]
    assert found == [(4, "TRN289", False)]


def test_an_optional_import_with_a_flag_for_a_fallback_stays_guarded(tmp_path):
    (tmp_path / "unicornn.py").write_text(CUPY.replace('''        if not _available:
            raise ImportError("Requires cupy.")
''', '''        self.fast = _available
'''))
    found = [(f[1], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded")]
    assert found == [(4, "TRN289", True)]


IMPORTED_NAMES = '''import torch
from torch.cuda.amp import custom_bwd, custom_fwd


class Scan(torch.autograd.Function):
    @staticmethod
    @custom_fwd
    def forward(ctx, x):
        return x
'''


def test_the_from_import_of_a_flagged_name_is_listed_with_its_use(tmp_path):
    (tmp_path / "scan.py").write_text(IMPORTED_NAMES)
    report = json.loads(run_cli("scan", tmp_path, "--format", "json", "--no-cache").stdout)
    found = [(f["line"], f["column"], f["rule"], f.get("occurrences")) for f in report["findings"]]
    # the finding stays at the use; the import statement that names torch.cuda.amp is one of its places
    assert found == [(7, 6, "TRN251", [{"line": 2, "column": 1, "rule": "TRN251"}])]


def test_a_module_import_is_not_listed_with_attribute_uses(tmp_path):
    (tmp_path / "scan.py").write_text("import torch\n\nscaler = torch.cuda.amp.GradScaler()\n")
    report = json.loads(run_cli("scan", tmp_path, "--format", "json", "--no-cache").stdout)
    assert [(f["line"], f["rule"], f.get("occurrences")) for f in report["findings"]] == [(3, "TRN251", None)]


MODULE_ALIASES = '''import torch
import torch.cuda.amp as amp
import torch.nn.functional as F
from torch.cuda import amp as cuda_amp


@amp.autocast(enabled=False)
def rope(x):
    with cuda_amp.autocast(dtype=torch.bfloat16):
        return F.interpolate(x, scale_factor=2, mode="bicubic")
'''


def test_an_import_binding_the_flagged_module_to_a_name_is_listed_with_its_use(tmp_path):
    (tmp_path / "model.py").write_text(MODULE_ALIASES)
    report = json.loads(run_cli("scan", tmp_path, "--format", "json", "--no-cache").stdout)
    found = [(f["line"], f["rule"], f.get("occurrences")) for f in report["findings"]]
    # `import torch.cuda.amp as amp` and `from torch.cuda import amp as cuda_amp` bind torch.cuda.amp itself: a
    # place of the use through that name (the blind labels of yolov5 mark `from torch.cuda import amp`);
    # `import torch.nn.functional as F` binds a module the interpolate rule does not name (it names the
    # function), so it is not listed with F.interpolate
    assert found == [(7, "TRN251", [{"line": 2, "column": 1, "rule": "TRN251"}]),
                     (9, "TRN251", [{"line": 4, "column": 1, "rule": "TRN251"}]),
                     (10, "TRN191", None)]


def test_a_flag_asserted_only_under_a_further_condition_keeps_the_import_guarded(tmp_path):
    (tmp_path / "model.py").write_text('''import torch

try:
    import xformers.ops
    XFORMERS_IS_AVAILABLE = True
except ImportError:
    XFORMERS_IS_AVAILABLE = False


def make_attn(kind):
    if torch.__version__ < "2.0.0":
        assert XFORMERS_IS_AVAILABLE
        kind = "vanilla-xformers"
    return kind
''')
    found = [(f[1], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded")]
    assert found == [(4, "TRN284", True)]


DATACLASS = '''from dataclasses import dataclass

DEFAULT_ATTENTION_IMPLEMENTATION = "flash_attention_2"


@dataclass
class LlamaConfig:
    hidden_size: int = 4096
    _attn_implementation: str = DEFAULT_ATTENTION_IMPLEMENTATION


@dataclass
class QwenConfig:
    _attn_implementation: str = "sdpa"


def load(name, attn_implementation="flash_attention_2"):
    return name, attn_implementation
'''
FA2 = "Hugging Face model loaded with FlashAttention 2/3: `attn_implementation`"


def test_dataclass_field_and_parameter_defaults_of_a_keyword_are_reported(tmp_path):
    (tmp_path / "models_config.py").write_text(DATACLASS)
    report = json.loads(run_cli("scan", tmp_path, "--format", "json", "--no-cache").stdout)
    found = [(f["line"], f["column"], f["rule"], f["message"], f.get("occurrences")) for f in report["findings"]]
    assert found == [
        # the field reads the module constant: the constant's literal is listed as a place
        (9, 33, "TRN282", FA2, [{"line": 3, "column": 36, "rule": "TRN282"}]),
        (17, 36, "TRN282", FA2, None),
    ]


def test_a_probe_function_whose_handler_returns_false_keeps_the_import_guarded(tmp_path):
    (tmp_path / "probe.py").write_text('''import torch


def is_profiled() -> bool:
    try:
        from xformers.profiler import profiler
    except ImportError:
        return False
    return profiler.active()


def load_profiler():
    try:
        from xformers.profiler import profiler
    except ImportError:
        print("no xformers")
    return profiler
''')
    found = [(f[1], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded")]
    assert found == [(6, "TRN284", True), (14, "TRN284", False)]  # a handler that only prints is no fallback


def test_a_default_only_printed_or_handed_on_is_not_reported_by_the_file_pass(tmp_path):
    (tmp_path / "launch.py").write_text('''def describe(backend="nccl"):
    print(f"backend: {backend}")


def start(launcher, backend="nccl"):
    return launcher.run(backend)
''')
    # the second default reaches only a call the project makes: the link step follows it when it ends in
    # a catalogue API (tests/test_project_link.py); here it does not
    assert [f for f in scan_findings(tmp_path) if f[3] == "TRN271"] == []


DEVICE_PICK_BY_COMPARISON = '''import torch


class DDIMSampler:
    def register_buffer(self, name, attr):
        if type(attr) == torch.Tensor:
            if attr.device != torch.device("cuda"):
                attr = attr.to(torch.device("cuda"))
        setattr(self, name, attr)

    def keep_precision(self, x):
        if x.device == torch.device("cuda"):
            return x.half()
        return x
'''


def test_a_device_comparison_whose_arm_moves_the_value_there_is_the_device_pick(tmp_path):
    (tmp_path / "ddim.py").write_text(DEVICE_PICK_BY_COMPARISON)
    report = json.loads(run_cli("scan", tmp_path, "--format", "json", "--no-cache").stdout)
    found = [(f["line"], f["rule"], f.get("occurrences")) for f in report["findings"]]
    # the check is the line to change; the move in its arm folds into it. A comparison whose arm moves nothing
    # (keep_precision) only reads where the tensor is and stays unreported.
    assert found == [(7, "TRN242", [{"line": 8, "column": 45, "rule": "TRN242"}])]


def _places(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    proc = run_cli("scan", tmp_path / name, "--format", "json", "--no-cache")
    return [(f["line"], f["column"], f["rule"], [(o["line"], o["rule"]) for o in f.get("occurrences", ())])
            for f in json.loads(proc.stdout)["findings"]]


def test_the_import_line_of_a_library_the_port_drops_is_a_place_of_its_uses(tmp_path):
    # `import deepspeed` names nothing flagged by itself; the uses do, and the port deletes the import with them
    assert _places(tmp_path, "engine.py", '''import deepspeed
import torch
from deepspeed.runtime.engine import DeepSpeedEngine


def build(model, cfg):
    return deepspeed.initialize(model=model, config=cfg)
''') == [(3, 1, "TRN287", [(1, "TRN287"), (7, "TRN287")])]
    # `import torch` is never a place of a torch API's use: torch stays
    assert _places(tmp_path, "dev.py", '''import torch


def move(x):
    return x.to(torch.device("cuda"))
''') == [(5, 30, "TRN242", [])]


def test_a_from_import_binding_the_flagged_module_is_a_place_of_its_uses(tmp_path):
    assert _places(tmp_path, "amp_train.py", '''from torch.cuda import amp


def step(model, x, opt):
    scaler = amp.GradScaler()
    return scaler
''') == [(5, 14, "TRN251", [(1, "TRN251")])]
    # `from torch import cuda` binds a package the rule does not name by itself: no place
    assert _places(tmp_path, "sync.py", '''from torch import cuda


def wait():
    cuda.synchronize()
''') == [(5, 5, "TRN243", [])]


def test_compiled_extensions_of_apex_and_flash_attn_are_imports_of_those_libraries(tmp_path):
    assert _places(tmp_path, "fused.py", '''import xentropy_cuda_lib
import rotary_emb
import fused_layer_norm_cuda
import rotary
''') == [(1, 1, "TRN281", [(2, "TRN281")]), (3, 1, "TRN283", [])]


def test_the_uses_of_a_cuda_only_librarys_imported_names_are_places_of_its_import(tmp_path):
    # every call the port rewrites is listed with the import finding (one finding per library per file)
    assert _places(tmp_path, "attn.py", '''import torch
from flash_attn.flash_attn_interface import flash_attn_func
import flash_attn.layers.rotary as rot


def attend(q, k, v):
    q = rot.apply_rotary_emb(q, None, None)
    return flash_attn_func(q, k, v, causal=True)


def local(q, k, v):
    flash_attn_func = torch.nn.functional.scaled_dot_product_attention
    return flash_attn_func(q, k, v)


def is_rotary(m):
    return isinstance(m, (rot.RotaryEmbedding, torch.nn.Module))
''') == [(2, 1, "TRN281", [(3, "TRN281"), (7, "TRN281"), (8, "TRN281")])]
    # a project module of the same short name is not the library: nothing reported, nothing listed
    assert _places(tmp_path, "mine.py", '''from .flash_attn import local_attention


def attend(q, k, v):
    return local_attention(q, k, v)
''') == []


TWO_FUNCTIONS = '''import torch
from torch.cuda.amp import custom_bwd, custom_fwd


class TruncExp(torch.autograd.Function):
    @staticmethod
    @custom_fwd(cast_inputs=torch.float32)
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.exp(x)

    @staticmethod
    @custom_bwd
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * torch.exp(x.clamp(-15, 15))


class Scale(torch.autograd.Function):
    @staticmethod
    @custom_fwd
    def forward(ctx, x):
        return x * 2

    @staticmethod
    @custom_bwd
    def backward(ctx, g):
        return g * 2
'''


def test_the_amp_decorators_of_one_autograd_function_are_one_finding(tmp_path):
    # `one-per-class-decorator-categories`: custom_fwd and custom_bwd of one class are one Function to change; the
    # other class stays its own finding (the shared import is a place of each)
    (tmp_path / "ops.py").write_text(TWO_FUNCTIONS)
    report = json.loads(run_cli("scan", tmp_path, "--format", "json", "--no-cache").stdout)
    found = [(f["line"], f["column"], f["rule"], [(o["line"], o["column"]) for o in f.get("occurrences", ())])
             for f in report["findings"]]
    assert found == [(7, 6, "TRN251", [(2, 1), (13, 6)]), (21, 6, "TRN251", [(2, 1), (26, 6)])]
