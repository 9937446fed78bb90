import os
import sys
from unittest import mock
from unittest.mock import MagicMock, Mock, patch

import pytest
import torch
import torch.distributed as dist

from proj.plugins import Plugin, Trainer, init_connection  # noqa


def test_default_scaler():
    plugin = Plugin(precision="16-mixed", device=Mock())
    assert isinstance(plugin.scaler, torch.cuda.amp.GradScaler)


@mock.patch("torch.distributed.init_process_group")
def test_registers_handler(init_mock):
    dist.init_process_group("nccl")
    init_mock.assert_called_once()


def test_tf32_message(monkeypatch):
    monkeypatch.setattr(Plugin, "warn", MagicMock())
    torch.backends.cuda.matmul.allow_tf32 = True
    Plugin(precision="16-mixed")


def test_with_mocker(mocker):
    mocker.patch("proj.plugins.is_ready", return_value=True)
    assert Plugin(precision="16-mixed", scaler=torch.cuda.amp.GradScaler()).ready


def test_trainer_fit(tmp_path):
    with patch("torch.nn.utils.clip_grad_norm_") as clip:
        trainer = Trainer(default_root_dir=tmp_path, precision="16-mixed")
        trainer.fit(Plugin())
    scaler = torch.cuda.amp.GradScaler()
    clip.assert_called()
    assert scaler


def test_really_compiles(monkeypatch):
    monkeypatch.setattr(Plugin, "backend", lambda *a: "none")
    compiled = torch.compile(Plugin().forward, fullgraph=True)
    x = torch.zeros(8, device="cuda")
    assert compiled(x) is not None


def test_helper_moves(monkeypatch):
    monkeypatch.setattr(Plugin, "backend", lambda *a: "none")
    model = _build()
    torch.backends.cudnn.benchmark = True
    assert model


def _build():
    return Plugin().cuda()


def test_environment_only(monkeypatch):
    monkeypatch.setenv("WORLD_SIZE", "2")
    with patch.dict("os.environ", {"RANK": "0"}), patch("sys.argv", ["prog"]):
        dist.init_process_group("nccl")


def test_spy_only():
    spy = Mock(wraps=init_connection)
    spy(torch_distributed_backend="nccl")
    dist.init_process_group("nccl")


@torch._dynamo.config.patch(specialize_int=True)
def test_config_patch_only():
    torch.backends.cuda.matmul.allow_tf32 = True


def test_environ_item(monkeypatch):
    monkeypatch.setitem(os.environ, "X", "1")
    monkeypatch.setattr(sys, "argv", ["prog"])
    torch.backends.cuda.matmul.allow_tf32 = True


def setup_model():
    log = mock.Mock()
    torch.backends.cudnn.benchmark = True
    return log


class TestPlugin:
    @mock.patch.object(Plugin, "is_available", return_value=True)
    def test_method(self, _):
        torch.backends.cudnn.benchmark = True

    def test_unmocked(self):
        torch.backends.cudnn.benchmark = True


@pytest.fixture
def mocked_scaler():
    return Mock(spec=torch.cuda.amp.GradScaler)
