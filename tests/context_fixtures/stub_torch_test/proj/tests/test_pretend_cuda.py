import torch


def test_autocast_checks_bfloat16():
    saved = torch.cuda.is_bf16_supported
    torch.cuda.is_bf16_supported = lambda: False
    try:
        with torch.amp.autocast(device_type="cuda", dtype=torch.bfloat16, enabled=False):
            pass
    finally:
        torch.cuda.is_bf16_supported = saved
