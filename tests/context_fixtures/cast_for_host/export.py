import torch


def export(points: torch.Tensor, rgbs: torch.Tensor, normals: torch.Tensor):
    a = points.double().cpu().numpy()
    b = rgbs.detach().to(torch.float64).cpu().tolist()
    c = normals.double().sum().cpu().numpy()
    d = points.double()
    return a, b, c, d.cpu().numpy()
