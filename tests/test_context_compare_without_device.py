"""compare-without-device: a backend comparison is a finding only when its arms pick the device."""
from conftest import CONTEXT_FIXTURES, scan_findings

COMPARED = ("Distributed backend compared with NCCL: the test picks the CUDA arm, which never runs on Trainium "
            "(the neuron backend takes the other arm, often the CPU)")


def test_a_comparison_that_picks_the_device_is_reported_one_that_opens_a_group_is_not():
    found = scan_findings(CONTEXT_FIXTURES / "compare_without_device", "--show-guarded")
    assert [f for f in found if f[3] == "TRN271"] == [
        # line 8 only opens an extra gloo group (the world group works on any backend): no finding
        ("groups.py", 14, 35, "TRN271", COMPARED, False),
        ("groups.py", 22, 19, "TRN271", COMPARED, False),
    ]
    # the CUDA arms never run on Neuron: the comparison is the finding, the "cuda" strings are guarded
    assert [(f[1], f[5]) for f in found if f[3] == "TRN242"] == [(15, True), (23, True)]
