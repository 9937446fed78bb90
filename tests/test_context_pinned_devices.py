"""Devices pinned to CUDA (context/_cuda_derived.pinned_cuda_devices, branch rec28p): a comparison of such a device
with "cuda" asks whether an accelerator is in use, so neuron-guarded does not read it as a CUDA check."""
import ast

from trnready.context._cuda_derived import pinned_cuda_devices
from trnready.context.base import FileContext


def _pinned(src):
    tree = ast.parse(src)
    tree.trnready_text = src
    ctx = FileContext(index=None, tree=tree, resolver=None, values={})
    out = pinned_cuda_devices(ctx)
    names = {n.id for n in ast.walk(tree) if type(n) is ast.Name and id(n) in out}
    return {k for k in out if isinstance(k, str)} | names


def test_a_device_from_a_gpu_ordinal_or_cpu_is_pinned():
    src = ('import torch\nclass E:\n    def __init__(self, gpus):\n        self.device = torch.device("cpu") if 0 else 0\n'
           '        if gpus is None:\n            self.device = torch.device("cpu")\n        else:\n'
           '            self.device = torch.device(gpus[0])\n')
    assert _pinned(src) == set()  # a conditional expression is no kind of its own: not pinned
    src = ('import torch\nclass E:\n    def __init__(self, gpus):\n        if gpus is None:\n'
           '            self.device = torch.device("cpu")\n        else:\n            self.device = torch.device(gpus[0])\n'
           '        if self.device.type == "cuda":\n            pass\n')
    assert _pinned(src) == {"self.device"}


def test_a_local_bound_only_to_cuda_is_pinned_in_its_function():
    src = 'def main():\n    device = "cuda"\n    if device == "cuda":\n        pass\n'
    assert _pinned(src) == {"device"}


def test_a_pick_a_parameter_or_a_cpu_literal_alone_is_not():
    assert _pinned('import torch\ndef f():\n    device = "cuda" if torch.cuda.is_available() else "cpu"\n'
                   '    if device == "cuda":\n        pass\n') == set()
    assert _pinned('def f(device):\n    device = "cuda"\n    if device == "cuda":\n        pass\n') == set()
    assert _pinned('def f(x):\n    device = "cpu"\n    if device == "cuda":\n        pass\n') == set()
