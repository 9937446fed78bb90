import torch

if hasattr(torch.amp, "GradScaler"):
    SCALER = torch.amp.GradScaler
else:
    SCALER = torch.cuda.amp.GradScaler

MAKE = torch.amp.GradScaler if hasattr(torch, "amp") else torch.cuda.amp.GradScaler

if hasattr(torch, "xpu"):
    OTHER = torch.cuda.amp.GradScaler
else:
    OTHER = torch.cuda.amp.GradScaler
