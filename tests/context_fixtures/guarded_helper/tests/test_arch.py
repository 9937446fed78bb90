from pkg.arch import _infer_nvidia_arch


def test_arch(monkeypatch):
    assert _infer_nvidia_arch(0)
