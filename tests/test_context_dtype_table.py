"""dtype-table: a dictionary whose values are all dtypes translates names; it uses none of them."""
from conftest import CONTEXT_FIXTURES, scan_findings

F64 = "float64 or complex128 dtype: `torch.float64`"


def test_entries_of_dtype_tables_are_silent():
    # lines 4-5 are tables (every value a dtype); line 12 mixes a dtype with other values, so it is a use;
    # line 19 is a return of a function that returns only dtypes, lines 25 and 28 lists of dtypes tested with `in`
    assert scan_findings(CONTEXT_FIXTURES / "dtype_table") == [
        ("dtypes.py", 9, 17, "TRN121", F64, False),
        ("dtypes.py", 12, 19, "TRN121", F64, False),
        ("dtypes.py", 35, 16, "TRN121", F64, False),  # the function also returns something else
        ("dtypes.py", 40, 30, "TRN121", F64, False),  # the list is iterated, not tested for membership
        # lines 48 and 55 are silent: a name-to-dtype function that hands its default back, an entry added to a
        # dtype table; line 61 stores a dtype in a dictionary that is not a dtype table
        ("dtypes.py", 61, 16, "TRN121", F64, False),
    ]


def test_a_constant_listing_dtypes_by_position_is_a_table(tmp_path):
    (tmp_path / "p2p.py").write_text('''import torch

ID_TO_DTYPE = [
    torch.float32,
    torch.float64,
    torch.complex64,
    torch.float16,
    torch.bfloat16,
]
DTYPES = [torch.float32, torch.float64]


def run():
    dtypes = [torch.float32, torch.float64, torch.float16, torch.bfloat16]
    return dtypes
''')
    # a two-entry list, and a list built inside a function, are what the code runs with
    assert [f[1:3] for f in scan_findings(tmp_path)] == [(10, 26), (14, 30)]


def test_the_limits_of_a_dtype_are_host_numbers(tmp_path):
    (tmp_path / "quant.py").write_text('''import torch
from torch import finfo

FP8_MAX = torch.finfo(torch.float8_e4m3fn).max
EPS = finfo(torch.float64).eps


def quantize(x):
    scale = FP8_MAX / x.abs().max().clamp(min=EPS)
    return (x * scale).to(torch.float8_e4m3fn), scale


def upcast(x):
    return x.to(torch.finfo(x.dtype).dtype if x.is_floating_point() else torch.float64)
''')
    # the casts are the uses; finfo of a dtype gives Python numbers (lines 4 and 5 silent)
    assert [(f[1], f[2], f[3]) for f in scan_findings(tmp_path)] == [(10, 27, "TRN202"), (14, 74, "TRN121")]


def test_the_limits_in_a_function_that_casts_to_the_dtype_are_its_first_place(tmp_path):
    (tmp_path / "fp8.py").write_text('''import torch


def scale(t, amax):
    max_v = torch.finfo(torch.float8_e4m3fn).max
    s = amax.float() / max_v
    return (t / s).to(torch.float8_e4m3fn)
''')
    assert [(f[1], f[2], f[3]) for f in scan_findings(tmp_path)] == [(5, 25, "TRN202")]


def test_a_comprehension_that_only_compares_its_elements_is_a_membership_test(tmp_path):
    (tmp_path / "checks.py").write_text('''import torch


def is_float_dtype(dtype):
    return any(dtype == d for d in (torch.float64, torch.float32, torch.float16))


def upcast_all(tensors):
    return [t.to(d) for d in (torch.float64, torch.float32) for t in tensors]
''')
    # line 5 compares each element with a dtype: nothing is made float64; line 9 converts tensors to each one
    assert [f[1:4] for f in scan_findings(tmp_path)] == [(9, 31, "TRN121")]


def test_allowed_dtypes_kept_on_self_or_passed_by_keyword_are_no_cast(tmp_path):
    (tmp_path / "fsq.py").write_text('''import torch
from vector_quantize_pytorch import FSQ


class Quantizer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.allowed_dtypes = (torch.float32, torch.float64)
        self.quantizer = FSQ(levels=[8], allowed_dtypes=[torch.float16, torch.float32, torch.float64])
        self.work_dtypes = (torch.float32, torch.float64)

    def forward(self, z):
        if z.dtype not in self.allowed_dtypes:
            z = z.float()
        return [z.to(d) for d in self.work_dtypes]


def build(z):
    return z.to(dtype=[torch.float32, torch.float64][1])
''')
    # lines 8 and 9 only list the dtypes a check or a library accepts; line 10's are cast to (line 15), line 19
    # picks one to cast to
    assert [f[1:4] for f in scan_findings(tmp_path)] == [(10, 44, "TRN121"), (19, 39, "TRN121")]


def test_a_parameter_named_for_dtypes_defaults_to_the_list_it_accepts(tmp_path):
    (tmp_path / "fsq.py").write_text('''import torch


class FSQ(torch.nn.Module):
    def __init__(self, levels, allowed_dtypes=(torch.float32, torch.float64), *,
                 cast_dtypes=[torch.float64, torch.float32]):
        super().__init__()
        self.allowed_dtypes = allowed_dtypes
        self.cast_dtypes = cast_dtypes


def widen(z, dtype=torch.float64, work=(torch.float32, torch.float64)):
    return [z.to(d) for d in work] + [z.to(dtype)]
''')
    # lines 5 and 6 (both defaults): lists of what a class accepts; line 12: a single dtype default, and a
    # parameter whose name is no dtype list (`work`), one finding for the statement
    assert [f[1:4] for f in scan_findings(tmp_path)] == [(12, 20, "TRN121")]
