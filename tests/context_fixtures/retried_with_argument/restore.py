import logging

import torch


def load_model(model, ckpt_path):
    try:
        ckpt = torch.load(ckpt_path)
    except:
        ckpt = torch.load(ckpt_path, map_location=torch.device("cpu"))
    model.load_state_dict(ckpt["model"])


def load_generator(model, ckpt_path):
    try:
        state = torch.load(ckpt_path)
    except RuntimeError:
        state = torch.load(ckpt_path, "cpu")
    model.load_state_dict(state)


def load_logged(model, ckpt_path):
    try:
        state = torch.load(ckpt_path)
    except Exception:
        logging.exception("cannot read %s", ckpt_path)
        raise
    model.load_state_dict(state)


def load_twice(model, ckpt_path, other_path):
    try:
        state = torch.load(ckpt_path)
    except Exception:
        state = torch.load(other_path)
    model.load_state_dict(state)


def load_missing_file(model, ckpt_path):
    try:
        state = torch.load(ckpt_path)
    except FileNotFoundError:
        state = torch.load("default.pt", map_location="cpu")
    model.load_state_dict(state)


def load_in_handler(model, ckpt_path):
    try:
        model.load_state_dict({})
    except Exception:
        try:
            state = torch.load(ckpt_path)
        except Exception:
            state = torch.load(ckpt_path, map_location="cpu")
        model.load_state_dict(state)
