import torch
from transformers import AutoModel

if __name__ == "__main__":
    model = AutoModel.from_pretrained("m", device_map="auto", torch_dtype=torch.float64)
