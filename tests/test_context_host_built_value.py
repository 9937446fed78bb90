"""host-built-value: operations on tensors a function builds on the host from Python values run on the CPU."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

SHAPE = "Operation whose output shape depends on the data: `%s`"
F64 = "float64 or complex128 dtype: `%s`"
MASK = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"


def test_host_built_values_are_guarded_and_look_alikes_stay():
    assert scan_findings(CONTEXT_FIXTURES / "host_built_value", "--show-guarded") == [
        ("decode.py", 9, 19, "TRN104", SHAPE % "nonzero", True),  # torch.tensor(Python tokens), then a mask of it
        ("decode.py", 16, 23, "TRN104", SHAPE % "torch.unique", True),  # arange of a parameter's size
        ("decode.py", 22, 12, "TRN191", "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate`",
         True),  # a NumPy array bridged with from_numpy
        ("decode.py", 29, 19, "TRN104", SHAPE % "nonzero", False),  # a parameter: unknown
        ("decode.py", 34, 12, "TRN104", SHAPE % "nonzero", False),  # moved to a device on the way
        ("decode.py", 39, 12, "TRN104", SHAPE % "nonzero", False),  # a 0-dim tensor meeting the input
        ("decode.py", 45, 18, "TRN104", SHAPE % "nonzero", False),  # in a forward: compiled code breaks its graph
        ("decode.py", 52, 12, "TRN104", MASK, True),  # the result goes to scikit-learn: a host array
        ("decode.py", 58, 12, "TRN104", MASK, False),  # look-alike: parameters, kept in torch
        ("default_device.py", 3, 26, "TRN242", '"cuda" device string: `cuda`', False),
        ("default_device.py", 7, 12, "TRN104", SHAPE % "nonzero", False),  # factories build on the default device
        ("kept.py", 5, 40, "TRN121", F64 % "torch.double", True),  # an expected value compared in place
        ("kept.py", 13, 43, "TRN121", F64 % "torch.float64", False),  # returned: the caller may move it
        ("kept.py", 20, 62, "TRN121", F64 % "torch.float64", False),  # a module buffer moves with the module
    ]


def test_registered_as_a_guard():
    assert context.get("host-built-value").effect == "guard"
