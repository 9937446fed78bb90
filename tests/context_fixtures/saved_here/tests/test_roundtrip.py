import torch


def test_state_dict_roundtrip(tmp_path):
    path = tmp_path / "c.pt"
    torch.save({"w": torch.ones(2)}, path)
    state = torch.load(path)
    assert state["w"].sum() == 2
