import torch


def build(model, backend):
    if backend == "neuron":
        return torch.compile(model, backend="neuron")
    elif backend == "inductor":
        torch._inductor.config.coordinate_descent_tuning = True
        return torch.compile(model, options={"max_autotune": True})
    torch._inductor.config.fx_graph_cache = True
    return model


def build_other(model, cfg):
    if cfg.backend != "inductor":
        torch._inductor.config.max_autotune = True
    return model
