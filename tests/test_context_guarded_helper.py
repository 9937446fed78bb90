"""guarded-helper: a private module-level function the file calls only from code Neuron never runs is guarded;
the link step `imported-helper` puts it back when another file names it."""
import json

from conftest import CONTEXT_FIXTURES, run_cli
from trnready import context

FIXTURE = CONTEXT_FIXTURES / "guarded_helper"


def _found(path):
    proc = run_cli("scan", path, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["rule"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]]


def test_helpers_called_only_from_guarded_code_are_guarded_unless_named_otherwise_or_elsewhere():
    assert _found(FIXTURE) == [
        # called only under `if device == "cuda":` (and by tests/test_arch.py, a unit test of it: no caller)
        ("pkg/arch.py", 5, "TRN243", "guarded-helper"),
        ("pkg/arch.py", 10, "TRN243", "guarded-helper"),  # the other arm of `torch.version.hip`, also guarded
        ("pkg/arch.py", 14, "TRN243", ""),  # _memory: called on the path Neuron takes
        ("pkg/arch.py", 18, "TRN243", ""),  # _named: also named in a string
        ("pkg/arch.py", 22, "TRN243", ""),  # _shared: other.py imports and calls it
        ("pkg/arch.py", 32, "TRN243", ""),  # the check itself
        ("pkg/arch.py", 38, "TRN243", ""),  # a public function: other code may call it
        ("pkg/arch.py", 42, "TRN243", ""),
        # ChituDiffusion's fused paths: the checks inside the capability method and property stay; the private
        # methods run only when `self.supports_fused_overlap(...)` holds, under a local flag holding `q.is_cuda`, or
        # after `if not self.can_fuse: return ...`, each answering False on Neuron
        ("pkg/fused_paths.py", 10, "TRN243", ""),
        ("pkg/fused_paths.py", 14, "TRN243", ""),
        ("pkg/fused_paths.py", 32, "TRN243", "guarded-helper"),
        ("pkg/fused_paths.py", 33, "TRN243", "guarded-helper"),
        ("pkg/fused_paths.py", 37, "TRN262", "guarded-helper"),
        ("pkg/fused_paths.py", 41, "TRN243", "guarded-helper"),
        # private methods called only as `self._x(...)` in their class, under `if x.device.type == "cuda"`
        ("pkg/layers.py", 12, "TRN262", "guarded-helper"),
        ("pkg/layers.py", 13, "TRN243", "guarded-helper"),
        ("pkg/layers.py", 17, "TRN243", "guarded-helper"),  # _replayed; it calls _captured: guarded in turn
        ("pkg/layers.py", 21, "TRN243", ""),  # _sync: called on the path Neuron takes
        ("pkg/layers.py", 24, "TRN243", ""),  # _handed_on: a bound method handed on, not a call
        ("pkg/layers.py", 37, "TRN243", ""),  # _overridden: a subclass in more_layers.py calls it unguarded
        ("pkg/layers.py", 47, "TRN243", ""),  # the availability flag
        ("pkg/layers.py", 50, "TRN243", ""),  # _log_memory: called under the flag, not a test of a tensor's device
        # called only under `if self.tpu:`, a switch of an accelerator Trainium never has (fairseq's trainer)
        ("pkg/layers.py", 62, "TRN221", "guarded-helper"),
        ("pkg/layers.py", 66, "TRN221", ""),  # _xla_sync: called under `if not self.tpu:`, the path Neuron takes
    ]


def test_a_method_no_other_file_names_is_guarded():
    got = _found(FIXTURE / "pkg" / "layers.py")
    assert ("layers.py", 37, "TRN243", "guarded-helper") in got
    assert ("layers.py", 21, "TRN243", "") in got


def test_without_the_importing_file_the_helper_is_guarded():
    got = _found(FIXTURE / "pkg")
    assert ("arch.py", 22, "TRN243", "guarded-helper") in got


def test_registered_as_a_guard():
    p = context.get("guarded-helper")
    assert p.effect == "guard"
