import torch
from transformers import AutoModelForCausalLM


def validate(cfg):
    return bool(cfg)


def test_qlora_config_is_validated():
    cfg = {"adapter": "qlora", "load_in_4bit": True}
    assert validate(cfg)


def test_qlora_model_loads():
    cfg = {"adapter": "qlora", "load_in_4bit": True}
    model = AutoModelForCausalLM.from_pretrained("m", **cfg).to("cuda")
    assert model is not None
