"""numpy-only-result: a float64 tensor made on the default device and only converted to NumPy is host data."""
from conftest import scan_findings

SRC = '''import torch


def make_beta_schedule(n_timestep, linear_start=1e-4, linear_end=2e-2):
    betas = (
        torch.linspace(linear_start**0.5, linear_end**0.5, n_timestep, dtype=torch.float64)
        ** 2
    )
    return betas.numpy()


def device_schedule(n, device):
    betas = torch.linspace(0.0, 1.0, n, dtype=torch.float64, device=device)
    return betas.numpy()


def used_schedule(n):
    betas = torch.linspace(0.0, 1.0, n, dtype=torch.float64)
    return betas.numpy(), betas * 2


def chained_schedule(n):
    return (torch.linspace(0.0, 1.0, n, dtype=torch.float64) ** 2).numpy()


def chained_to_device(n, device):
    return (torch.linspace(0.0, 1.0, n, dtype=torch.float64) ** 2).to(device)
'''


def test_a_float64_tensor_only_turned_into_numpy_is_guarded(tmp_path):
    (tmp_path / "util.py").write_text(SRC)
    found = [(f[1], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN121"]
    # line 6: made on the CPU and returned as NumPy; 13 names a device; 18 is also used as a tensor; 23 is
    # converted to NumPy as it is made; 27 goes to a device
    assert found == [(6, "TRN121", True), (13, "TRN121", False), (18, "TRN121", False), (23, "TRN121", True),
                     (27, "TRN121", False)]
