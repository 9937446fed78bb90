"""cast-for-host: a 64-bit cast whose result goes straight to NumPy or Python is host-side data."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

DOUBLE = "Tensor cast to double: `double`"


def test_casts_handed_straight_to_the_host_are_guarded():
    assert scan_findings(CONTEXT_FIXTURES / "cast_for_host", "--show-guarded") == [
        ("export.py", 5, 9, "TRN122", DOUBLE, True),  # .double().cpu().numpy()
        ("export.py", 6, 26, "TRN121", "float64 or complex128 dtype: `torch.float64`", True),  # .to(f64).cpu().tolist()
        # .sum() in float64 first; line 8 (kept as a tensor) is reported too, as a place of this finding
        # (float64 is folded to one finding per function)
        ("export.py", 7, 9, "TRN122", DOUBLE, False),
    ]


def test_registered_as_a_guard_for_methods_and_references():
    p = context.get("cast-for-host")
    assert p.effect == "guard" and set(p.kinds) == {"method", "reference"}


def test_a_data_sized_op_handed_to_the_host_is_no_cast(tmp_path):
    (tmp_path / "decoder.py").write_text('''import torch


def doc_starts(tokens, sep):
    starts = (tokens == sep).nonzero().tolist()
    scale = tokens.double().cpu().numpy()
    return starts, scale
''')
    # nonzero runs on the device tensor whatever happens to its result; the cast to double for NumPy stays guarded
    assert [(f[1], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded")] == [
        (5, "TRN104", False), (6, "TRN122", True)]


def test_a_cast_after_cpu_is_guarded_unless_moved_back(tmp_path):
    (tmp_path / "results.py").write_text('''import torch


def to_result(pred):
    energy = pred["energy"].detach().cpu().to(torch.float64)
    return float(energy.item())


def solve(a_val, device):
    a_cpu = a_val.cpu().double()
    return a_cpu.to(device)


def rescale(x):
    return x.cpu().double().cuda()
''')
    # line 5: the cast runs after .cpu() and nothing moves it back; lines 10 and 15 go back to a device
    assert [(f[1], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] in ("TRN121", "TRN122")] == [
        (5, "TRN121", True), (10, "TRN122", False), (15, "TRN122", False)]
