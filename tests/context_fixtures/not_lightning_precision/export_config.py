import torch
from pytorch_lightning import Trainer

EXPORT = {"precision": "fp16", "opset": 17}
trainer = Trainer(accelerator="cpu", precision="bf16-mixed")
model = torch.nn.Linear(4, 4).half()
