import os
import tempfile

import pytest
import torch

from trainer import export_weights, fit


def helper_keyword(model, out_dir):
    target = os.path.join(out_dir, "weights.pt")
    export_weights(model, save_path=target)
    return torch.load(target)


def helper_positional(model, out_dir):
    target = os.path.join(out_dir, "weights.pt")
    export_weights(model, target)
    return torch.load(target)


def helper_other_path(model, out_dir):
    export_weights(model, save_path=os.path.join(out_dir, "a.pt"))
    return torch.load(os.path.join(out_dir, "b.pt"))  # expect: TRN351


def reader_only(model, ckpt):
    fit(model, ckpt)
    return torch.load(ckpt)  # expect: TRN351


def fresh_directory(model):
    with tempfile.TemporaryDirectory() as tmp:
        run_dir = fit(model, output_dir=tmp)
        return torch.load(os.path.join(run_dir, "last.pt"))


def made_directory(model):
    tmp = tempfile.mkdtemp()
    fit(model, output_dir=tmp)
    return torch.load(tmp + "/last.pt")


def fixed_directory(model, ckpt_dir):
    fit(model, output_dir=ckpt_dir)
    return torch.load(os.path.join(ckpt_dir, "last.pt"))  # expect: TRN351


@pytest.fixture
def workdir():
    with tempfile.TemporaryDirectory() as d:
        yield d


def test_from_fixture(workdir):
    exp = fit(None, output_dir=workdir)
    assert torch.load(exp / "step_5.pt") is not None


def test_from_tmp_path(tmp_path):
    assert torch.load(tmp_path / "model.pt") is not None


def test_from_data(data_dir):
    assert torch.load(data_dir / "reference.pt") is not None


def from_archive(archive):
    tmp = tempfile.mkdtemp()
    archive.extractall(tmp)
    return torch.load(os.path.join(tmp, "pytorch_model.bin"))  # expect: TRN351
