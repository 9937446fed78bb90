import os
import unittest

import pytest
import torch
from torch.testing._internal.common_cuda import TEST_CUDA
from torch.utils._triton import has_triton
from torchao.utils import is_sm_at_least_90, is_torchao_available, torch_version_at_least

_HAS_TRITON = has_triton() and torch_version_at_least("2.10.0")
requires_grouped_kernel = pytest.mark.skipif(not _HAS_TRITON, reason="requires Triton")
RUN_SLOW = os.environ.get("RUN_SLOW") == "1"
slow_only = pytest.mark.skipif(not RUN_SLOW, reason="slow")
TEST_CUDA_LOCAL = os.environ.get("TEST_CUDA_LOCAL") == "1"


def _is_fp8_sdpa_available():
    """Needs CUDA and FA3."""
    if not torch.cuda.is_available():
        return False
    try:
        from torch.nn.attention import activate_flash_attention_impl
        activate_flash_attention_impl("FA3")
        return True
    except Exception:
        return False


def _is_hopper():
    return torch.cuda.is_available() and torch.cuda.get_device_capability() == (9, 0)


def is_cuda_available():
    return True  # named like a check, but the file says what it answers: the name is not trusted over the body


@pytest.mark.skipif(not has_triton(), reason="needs Triton")
def test_triton():
    torch.cuda.synchronize()


@unittest.skipUnless(is_sm_at_least_90(), "needs SM90")
def test_sm90():
    torch.cuda.synchronize()


@unittest.skipIf(not _is_fp8_sdpa_available(), "FP8 SDPA needs CUDA and FA3")
def test_fp8_sdpa():
    torch.cuda.synchronize()


@unittest.skipUnless(torch_version_at_least("2.11.0") and _is_hopper(), "needs Hopper")
def test_hopper():
    torch.cuda.synchronize()


@requires_grouped_kernel
def test_grouped():
    torch.cuda.synchronize()


def test_branch_on_imported_flag():
    if TEST_CUDA:
        torch.cuda.synchronize()


# Look-alikes
@unittest.skipUnless(is_cuda_available(), "claims CUDA")
def test_local_check_says_true():
    torch.cuda.synchronize()


@unittest.skipUnless(is_torchao_available(), "needs torchao")
def test_torchao_available():
    torch.cuda.synchronize()


@slow_only
def test_slow():
    torch.cuda.synchronize()


def test_branch_on_local_flag():
    if TEST_CUDA_LOCAL:
        torch.cuda.synchronize()


if RUN_SLOW:
    def _fast_path_ok():
        return torch.cuda.is_available()
else:
    def _fast_path_ok():
        return True


@unittest.skipUnless(_fast_path_ok(), "defined twice: known only when both definitions agree")
def test_defined_twice():
    torch.cuda.synchronize()
