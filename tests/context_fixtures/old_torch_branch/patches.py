import torch
from packaging import version
from transformers.utils.import_utils import _torch_version, is_torch_less_or_equal
from torchao.utils import TORCH_VERSION_AT_LEAST_2_4
from diffusers.utils import is_torch_version


def patch(fn):
    is_torch_2_6 = torch.__version__.startswith("2.6")
    if not is_torch_2_6:
        return
    torch.compile(fn, mode="max-autotune-no-cudagraphs")


def compiled(fn, training):
    if is_torch_less_or_equal("2.5.1"):
        return torch.compile(fn, mode="reduce-overhead")
    elif version.parse(_torch_version).base_version == "2.6.0" and training:
        return torch.compile(fn, mode="max-autotune-no-cudagraphs")
    return torch.compile(fn, mode="max-autotune")


def helpers(fn):
    a = torch.compile(fn, mode="reduce-overhead") if not TORCH_VERSION_AT_LEAST_2_4 else fn
    if is_torch_version("<", "2.4"):
        torch.compile(fn, mode="reduce-overhead")
    if is_torch_version(">=", "2.4"):
        torch.compile(fn, mode="reduce-overhead")
    return a


def undecided(fn):
    if torch.__version__.startswith("2.1"):
        torch.compile(fn, mode="reduce-overhead")


def parameter(fn, torch_version):
    if torch_version < "2.4":
        torch.compile(fn, mode="reduce-overhead")


lowvram_mode = False
USE_OLD_PATH = False


def set_lowvram_mode(mode):
    global lowvram_mode
    lowvram_mode = mode


def unload(fn):
    if lowvram_mode:
        torch.compile(fn, mode="reduce-overhead")
    if USE_OLD_PATH:
        torch.compile(fn, mode="reduce-overhead")
