"""A trainer that probes torch.cuda.amp for its features; only some probes have a use beside them."""
import torch

if getattr(torch.cuda.amp, "autocast") is not None:
    HAS_AUTOCAST = True
HAS_SCALER = hasattr(torch.cuda.amp, "GradScaler")
HAS_CUSTOM_FWD = hasattr(torch.cuda.amp, "custom_fwd")
SCALE_CLS = getattr(torch.cuda.amp, "GradScaler")


def step(model, batch):
    with torch.cuda.amp.autocast():
        loss = model(batch)
    scaler = torch.cuda.amp.GradScaler() if HAS_SCALER else None
    return loss, scaler
