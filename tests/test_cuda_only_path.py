"""Link step cuda-only-path (trnready/project/cuda_only.py): a custom CUDA op whose wrapper picks the kernel only for
CUDA tensors and otherwise computes the same in PyTorch (StyleGAN's torch_utils/ops) is an advisory, with the CUDA
files only it compiles; the CUDA calls only that path makes are guarded. Without such a path the findings stay."""
import json

from conftest import CONTEXT_FIXTURES, run_cli

FIXTURES = CONTEXT_FIXTURES / "cuda_fallback"
LOWERED = "on Neuron the reference path runs, so the kernel is a performance item (porting it to NKI is optional)"


def scan(root, *args):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--no-config", "--show-guarded", *args)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)["findings"]


def rows(findings):
    return [(f["path"], f["line"], f["rule"], f["severity"], f.get("guarded_by"),
             [(o["path"], o["line"]) for o in f.get("elsewhere") or ()]) for f in findings]


def test_an_extension_used_only_for_cuda_tensors_beside_a_reference_path_is_an_advisory():
    got = scan(FIXTURES / "with_reference")
    assert rows(got) == [
        # the plugin loader's device name: read only while building, which happens only for CUDA tensors
        ("torch_utils/custom_ops.py", 9, "TRN243", "change", "cuda-only-path", []),
        # the kernel file the plugin compiles (through the file instantiating its templates): optional NKI work
        ("torch_utils/ops/bias_act.cu", 1, "TRN601", "advisory", None, [("torch_utils/ops/bias_act_f32.cu", 1)]),
        # the build, at the call of the project's wrapper; the wrapper's two load(...) calls are its places
        ("torch_utils/ops/bias_act.py", 14, "TRN302", "advisory", None,
         [("torch_utils/custom_ops.py", 16), ("torch_utils/custom_ops.py", 18)]),
        # the stream check inside the CUDA-only autograd Function (guarded-helper: called only from guarded code)
        ("torch_utils/ops/bias_act.py", 37, "TRN243", "change", "guarded-helper", []),
        # a custom conv chosen by a local check that returns False off CUDA (F.conv2d otherwise)
        ("torch_utils/ops/conv2d_gradfix.py", 25, "TRN243", "change", "guarded-helper", []),
    ]
    build = next(f for f in got if f["rule"] == "TRN302")
    assert build["message"].endswith(LOWERED)
    kernel = next(f for f in got if f["rule"] == "TRN601")
    assert "compiled only by torch_utils/ops/bias_act.py:14" in kernel["message"]
    assert "bias_act_f32.cu" in kernel["message"]


def test_the_verdict_counts_no_blocker_for_it():
    proc = run_cli("scan", FIXTURES / "with_reference", "--no-cache", "--no-config", "-q")
    assert proc.returncode == 0, proc.stdout
    assert "0 blocker" in proc.stdout


def test_a_cuda_path_with_no_other_path_keeps_its_findings():
    # look-alikes: the other arm raises, the kernel path is also called on every device, a machine check
    assert rows(scan(FIXTURES / "without_reference")) == [
        ("ops/fused.cu", 1, "TRN601", "blocker", None, []),
        ("ops/fused.py", 14, "TRN302", "blocker", None, []),
        ("ops/fused.py", 26, "TRN243", "change", None, []),
        # called only inside the arm of a torch.cuda.is_available() check (the check, line 40, is the finding):
        # guarded like a call written in that arm (guarded-helper, session 15)
        ("ops/fused.py", 35, "TRN243", "change", "guarded-helper", []),
        ("ops/fused.py", 40, "TRN243", "change", None, []),
        # contrast: called only in the CUDA arm of a conditional expression whose other arm runs on Neuron
        ("ops/fused.py", 47, "TRN243", "change", "guarded-helper", []),
    ]


def test_a_cuda_file_another_build_compiles_without_a_reference_path_stays_a_blocker():
    assert rows(scan(FIXTURES / "shared_source")) == [
        ("ops/fir.py", 6, "TRN302", "blocker", None, []),
        ("ops/upfirdn.cu", 1, "TRN601", "blocker", None, []),
        ("ops/upfirdn.py", 13, "TRN302", "advisory", None, []),
    ]


CHECK = '''import torch

enabled = True


def _use_custom(x):
    if not enabled:
        return False
    if x.device.type != "cuda":
        return False
    return True


def _only_enabled(x):
    if not enabled:
        return False
    return True


def run(x):
    if _use_custom(x):
        torch.cuda.synchronize()
    if _only_enabled(x):
        torch.cuda.synchronize()
    return x
'''


def test_a_local_check_returning_false_off_cuda_guards_its_block(tmp_path):
    # neuron-guarded: early `return False` exits, one of them on a test always true on Neuron
    (tmp_path / "op.py").write_text(CHECK)
    assert [(f["line"], f.get("guarded_by")) for f in scan(tmp_path)] == [(22, "neuron-guarded"), (24, None)]


def test_a_build_of_unknown_sources_above_the_cuda_file_keeps_it_a_blocker():
    # setup.py compiles whatever `glob.glob("ops/*.cu")` finds: ops/upfirdn.cu may be among them
    assert rows(scan(FIXTURES / "globbed_build")) == [
        ("ops/upfirdn.cu", 1, "TRN601", "blocker", None, []),
        ("ops/upfirdn.py", 13, "TRN302", "advisory", None, []),
        ("setup.py", 7, "TRN302", "blocker", None, []),
    ]


def test_a_function_called_only_from_a_cuda_fast_path_method_is_guarded():
    # capture_forward is called only inside Block._fast_norm, a private method called only as `self._fast_norm(x)`
    # under `x.device.type == "cuda"` (guarded-helper): two levels, across modules (petals' CUDA-graph helper)
    assert rows(scan(FIXTURES / "fast_path_method")) == [
        ("pkg/utils/replay.py", 5, "TRN262", "change", "cuda-only-path", []),
        ("pkg/utils/replay.py", 6, "TRN243", "change", "cuda-only-path", []),
        ("pkg/utils/replay.py", 7, "TRN243", "change", "cuda-only-path", []),
        ("pkg/utils/timing.py", 5, "TRN243", "change", None, []),  # called on every path
    ]


def test_a_fast_path_method_another_file_calls_keeps_its_callees(tmp_path):
    import shutil

    root = tmp_path / "proj"
    shutil.copytree(FIXTURES / "fast_path_method", root)
    (root / "pkg" / "layers" / "wide.py").write_text(
        "from pkg.layers.block import Block\n\n\nclass Wide(Block):\n    def forward(self, x):\n"
        "        return self._fast_norm(x)\n")
    got = rows(scan(root))
    assert ("pkg/utils/replay.py", 5, "TRN262", "change", None, []) in got
