"""Project step inherited masks (project/inherited_masks.py): a subclass in another module handing its own mask to
the base class's attention method is a place of the attention finding, at that argument."""
import json

from conftest import FIXTURES, run_cli

FIXTURE = FIXTURES / "inherited_masks"


def _findings():
    proc = run_cli("scan", FIXTURE, "--format", "json", "--no-cache", "--show-guarded", "--exit-zero")
    return {(f["path"], f["line"], f["rule"]): f for f in json.loads(proc.stdout)["findings"]}


def test_a_subclass_mask_is_a_place_of_the_base_attention_finding():
    f = _findings()[("lm/model.py", 7, "TRN171")]
    # adapter.py: the mask built beside the call (positional); adapter_v2.py: self.attend goes to its own override,
    # which hands its parameter on (nothing), and super().attend(mask=bias > 0) is a place; a call leaving the mask
    # out adds nothing
    assert [(e["path"], e["line"], e["column"]) for e in f["elsewhere"]] == [("lm/adapter.py", 10, 52),
                                                                          ("lm/adapter_v2.py", 12, 49)]


def test_no_finding_of_its_own_in_the_subclasses():
    assert not [k for k in _findings() if k[0] != "lm/model.py"]
