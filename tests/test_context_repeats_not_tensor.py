"""repeats-not-tensor: repeat_interleave is reported when its repeats are a torch tensor."""
from conftest import CONTEXT_FIXTURES, scan_findings

REPEATS = "repeat_interleave with a tensor of repeats and no output_size: `{}`"


def test_tensor_repeats_without_output_size():
    # n_rep, 2 and an unknown value are not tensors; output_size=64 fixes the length
    # columns.py: a column of an array (`grid_thw[:, 0]`, `sizes[:, -1]`) is no int; `sizes[0]` and
    # `sizes["n_rep"]` may be, and output_size fixes the length
    # offsets.py: a slice (`ptr[1:] - ptr[:-1]`) or a `.view(-1)` reshape is no int; a shape's slice, one element
    # and a dtype view are not shown to be tensors of counts
    assert scan_findings(CONTEXT_FIXTURES / "repeats_not_tensor") == [
        ("columns.py", 5, 9, "TRN106", REPEATS.format("torch.repeat_interleave"), False),
        ("columns.py", 6, 9, "TRN106", REPEATS.format("repeat_interleave"), False),
        ("offsets.py", 6, 9, "TRN106", REPEATS.format("torch.repeat_interleave"), False),
        ("offsets.py", 8, 9, "TRN106", REPEATS.format("torch.repeat_interleave"), False),
        ("rep.py", 6, 9, "TRN106", REPEATS.format("repeat_interleave"), False),
        ("rep.py", 7, 9, "TRN106", REPEATS.format("torch.repeat_interleave"), False),
        ("shapes.py", 13, 9, "TRN106", REPEATS.format("repeat_interleave"), False),
    ]
