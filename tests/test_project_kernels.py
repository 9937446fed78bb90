"""Imports of the project's own kernel modules (link step: the kernel's rule at the importing module's import)."""
from conftest import FIXTURES, scan_findings

TRITON = "Triton kernel (@triton.jit / @triton.autotune): `triton.autotune`"
OP = "torch.library operator with a kernel registered for CUDA only: `torch.library.custom_op`"


def test_imports_of_modules_defining_kernels_and_not_their_look_alikes():
    got = [f for f in scan_findings(FIXTURES / "project_kernels", "--no-config", "--show-guarded")
           if f[3] in ("TRN301", "TRN304")]
    # Not reported: model.py's second and third imports of kern/triton_ops.py (`from kern import scale as scale2`
    # through the package's re-export, `import kern.triton_ops`: one finding per importing file and kernel
    # module), `from kern.ops_any import soft_gelu` (a custom op for every device), `from kern import pad` (the
    # package re-exports it from kern/helpers.py, which defines no kernel), and triton_ops.py's own import of
    # ops_cuda (a kernel module's kernels are its items already). train.py imports the op only when CUDA is
    # there: listed as guarded. Part of the kernel's own package, so the kernel's finding is the item: the
    # package's kern/__init__.py re-exporting it, kern/composed.py beside it; so is benchmarks/bench_scale.py (a
    # benchmark of the kernel). model.py imports two kernel modules: one item, the second import (line 6) a place.
    # fallback.py imports kern/triton_ops.py (which needs triton, never on a Trainium host) in a `try` whose
    # `except ImportError:` defines a fallback: guarded. Its import of kern/ops_cuda.py (torch only, so the import
    # succeeds there) stays; so do noisy.py (the handler only prints) and mixed.py (a second, plain import).
    assert got == [
        ("fallback.py", 4, 5, "TRN301", TRITON + " (via fallback.py:4 from kern.triton_ops import scale → "
         "kern/triton_ops.py:8 @triton.autotune scale_kernel and 1 more)", True),
        ("fallback.py", 10, 5, "TRN304", OP + " (via fallback.py:10 from kern.ops_cuda import fused_gelu → "
         "kern/ops_cuda.py:4 @torch.library.custom_op fused_gelu)", False),
        ("kern/ops_cuda.py", 4, 2, "TRN304", OP, False),
        ("kern/triton_ops.py", 8, 2, "TRN301", TRITON, False),
        ("kern/triton_ops.py", 14, 2, "TRN301", "Triton kernel (@triton.jit / @triton.autotune): `triton.jit`", False),
        ("mixed.py", 2, 5, "TRN301", TRITON + " (via mixed.py:2 from kern.triton_ops import scale → "
         "kern/triton_ops.py:8 @triton.autotune scale_kernel and 1 more)", False),
        ("model.py", 3, 1, "TRN301", TRITON + " (via model.py:3 from kern.triton_ops import scale → "
         "kern/triton_ops.py:8 @triton.autotune scale_kernel and 1 more)", False),
        ("noisy.py", 2, 5, "TRN301", TRITON + " (via noisy.py:2 from kern.triton_ops import scale → "
         "kern/triton_ops.py:8 @triton.autotune scale_kernel and 1 more)", False),
        ("tools/fused_norm.py", 6, 2, "TRN301", "Triton kernel (@triton.jit / @triton.autotune): `triton.jit`", False),
        # a script beside its kernels file in a plain folder (no __init__.py) is no part of a kernel package
        ("tools/train_tool.py", 2, 1, "TRN301", "Triton kernel (@triton.jit / @triton.autotune): `triton.jit` (via "
         "tools/train_tool.py:2 from fused_norm import fused_norm → tools/fused_norm.py:6 @triton.jit norm_kernel)",
         False),
        ("train.py", 4, 5, "TRN304", OP + " (via train.py:4 from kern.ops_cuda import fused_gelu → "
         "kern/ops_cuda.py:4 @torch.library.custom_op fused_gelu)", True),
    ]


def test_calls_of_the_imported_kernel_wrappers_are_places_of_the_import_finding():
    import json

    from conftest import run_cli

    proc = run_cli("scan", FIXTURES / "project_kernels", "--format", "json", "--no-cache", "--no-config",
                   "--show-guarded")
    places = {(f["path"], f["line"]): [(o["line"], o["column"]) for o in f.get("occurrences", ())]
              for f in json.loads(proc.stdout)["findings"] if "(via" in f["message"]}
    # model.py: `soft_fused`, the last name of the import statement, is never called, `fused_gelu` is: every name counts;
    # `scale`, `scale2` (the same module through the package) and `kern.triton_ops.scale` are calls of
    # kern/triton_ops.py; `fused_gelu` under `impl == "fused"` (a parameter: either arm may run) is a place, the
    # two under `elif GELU_IMPL in ("fused", "cuda")` / `else` are not (GELU_IMPL is "eager" at module level),
    # nor are the calls of soft_gelu and pad (no kernel module).
    assert places == {
        ("fallback.py", 4): [],  # guarded: its calls are not listed
        ("fallback.py", 10): [(16, 23)],
        ("mixed.py", 2): [],
        ("noisy.py", 2): [],
        ("model.py", 3): [(6, 1), (14, 23), (15, 12), (15, 34), (30, 16)],  # line 6: its import of kern/ops_cuda.py
        ("tools/train_tool.py", 2): [(6, 12)],
        ("train.py", 4): [(10, 12)],
    }


def test_an_import_of_a_name_that_reaches_no_kernel_of_its_module_is_no_kernel_import():
    got = [f for f in scan_findings(FIXTURES / "kernel_reach", "--no-config", "--show-guarded") if f[3] == "TRN304"]
    # ops/dispatch.py defines the CUDA-only op `_fa3` beside a dispatcher that never names it (backends are looked
    # up in a registry): model.py's `from ops.dispatch import dispatch_attention` runs no kernel. fast_model.py
    # imports `fa3_attention` through the package's re-export; it reaches the op through _Hub.run and
    # _fa3_backend. whole.py imports the whole module (any of its names may be used). ops/launch.py registers an
    # op at import time with a statement that binds no name: importing anything from it (warm.py) registers it.
    assert got == [
        ("fast_model.py", 1, 1, "TRN304", OP + " (via fast_model.py:1 from ops import fa3_attention → "
         "ops/dispatch.py:13 @torch.library.custom_op _fa3)", False),
        ("ops/dispatch.py", 13, 2, "TRN304", OP, False),
        ("ops/launch.py", 9, 1, "TRN304", OP, False),
        ("warm.py", 1, 1, "TRN304", OP + " (via warm.py:1 from ops.launch import noop → "
         "ops/launch.py:9 torch.library.custom_op(...))", False),
        ("whole.py", 1, 1, "TRN304", OP + " (via whole.py:1 import ops.dispatch → "
         "ops/dispatch.py:13 @torch.library.custom_op _fa3)", False),
    ]
