"""TPU-only packages (torch_xla) for neuron-guarded: a flag set after their optional import is False on Neuron.

TorchNeuron is a native eager backend and does not install torch_xla, so `try: import torch_xla ...;
has_xla_support = True` / `except ImportError: has_xla_support = False` binds only the handler's False on a
Trainium host, like the same shape around a CUDA-only package. A module that imports the old Neuron stack itself
(torch_neuronx, neuronx_distributed, libneuronxla) is legacy XLA-Neuron code: there torch_xla is the path being
ported, and its flags are not treated so."""
from __future__ import annotations

import ast

# Top-level names of the legacy Neuron (XLA-based) stack: a module importing one is Neuron code written for
# torch_xla, whose XLA paths are the migration items.
_NEURON_STACK = ("torch_neuron", "neuronx", "libneuronxla", "transformers_neuronx", "optimum.neuron")


def _module_imports(body) -> list:
    """Dotted names imported at module level (also in a `try` / `if` block at the top)."""
    out: list = []
    for st in body:
        if type(st) is ast.Import:
            out.extend(a.name for a in st.names)
        elif type(st) is ast.ImportFrom and not st.level and st.module:
            out.append(st.module)
        elif type(st) in (ast.Try, ast.If) or type(st).__name__ == "TryStar":
            for field in ("body", "orelse", "finalbody"):
                out.extend(_module_imports(getattr(st, field, []) or []))
            for h in getattr(st, "handlers", []):
                out.extend(_module_imports(h.body))
    return out


def legacy_neuron_module(body) -> bool:
    """The module imports the legacy XLA-based Neuron stack (`import torch_neuronx`, `from neuronx_distributed
    import ...`)."""
    return any(n.startswith(_NEURON_STACK) for n in _module_imports(body))


def absent_packages(body, values) -> frozenset:
    """Packages never installed on a Trainium host with TorchNeuron, as read for one module: the CUDA-only ones,
    and the TPU-only ones (torch_xla) unless the module is legacy Neuron code."""
    packages = frozenset(values.get("cuda-only-packages", ()))
    tpu = frozenset(values.get("tpu-only-packages", ()))
    if tpu and not legacy_neuron_module(body):
        packages |= tpu
    return packages


def xla_switch_words(body, values) -> frozenset:
    """Words of a switch selecting an XLA device (`is_xla()`, `use_xla`, `device == "xla"`; [context.values]
    xla-switch-words), off on a Trainium host with TorchNeuron, whose device is "neuron": read for one module,
    none in legacy XLA-Neuron code, where the XLA branch is the Neuron path being ported."""
    words = frozenset(w.lower() for w in values.get("xla-switch-words", ()))
    return words if words and not legacy_neuron_module(body) else frozenset()
