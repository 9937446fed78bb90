"""xformers imported in a `try` whose handler sets a flag: the classes the file picks only when the flag is True
never run on Neuron (the plain attention beside them does); a class the file also builds unconditionally does."""
import torch
from torch import nn

try:
    import xformers.ops
    HAVE_XF = True
except ImportError:
    HAVE_XF = False


class PlainAttention(nn.Module):
    def forward(self, q, k, v):
        return torch.softmax(q @ k.transpose(-1, -2) * q.shape[-1] ** -0.5, -1) @ v


class FastAttention(nn.Module):
    def forward(self, q, k, v):
        return xformers.ops.memory_efficient_attention(q, k, v)  # ok: picked only when HAVE_XF


class FastBlock(nn.Module):
    def forward(self, x):
        return xformers.ops.memory_efficient_attention(x, x, x)  # ok: its mode string exists only under HAVE_XF


class AlwaysFast(nn.Module):
    def forward(self, q, k, v):
        return xformers.ops.memory_efficient_attention(q, k, v)  # expect: TRN284


MODES = {"plain": PlainAttention, "fast": FastBlock}


def attention_class():
    return FastAttention if HAVE_XF else PlainAttention


def block(mode="plain"):
    if HAVE_XF and mode == "plain":
        mode = "fast"
    return MODES[mode]()


def build_all():
    return [attention_class()(), block(), AlwaysFast()]


def fallback_arm(q, k, v):
    # the flag-false arm is the path Neuron takes: a definition named only there is not flag-selected
    return PlainAttention()(q, k, v) if not HAVE_XF else None


class NegatedPick(nn.Module):
    def forward(self, q, k, v):
        return xformers.ops.memory_efficient_attention(q, k, v)


def negated():
    return PlainAttention() if HAVE_XF else NegatedPick()
