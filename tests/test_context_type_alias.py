"""type-alias: CUDA tensor classes named only inside Union[...] / Optional[...] are types, not uses."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context


def test_type_aliases_are_dropped_and_casts_stay():
    found = [(f[0], f[1], f[3]) for f in scan_findings(CONTEXT_FIXTURES / "type_alias", "--show-guarded")]
    # boxes.py: IndexType and MaybeCuda only name torch.cuda classes; to_gpu casts to one
    assert found == [("boxes.py", 15, "TRN243")]


def test_registered_as_a_drop():
    assert context.get("type-alias").effect == "drop"
