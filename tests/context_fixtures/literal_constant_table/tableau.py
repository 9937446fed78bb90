import collections
import math

import torch

Tableau = collections.namedtuple("Tableau", "alpha, beta, c_sol")

_SQRT_2 = torch.sqrt(torch.tensor(2, dtype=torch.float64)).item()
gamma = 1.0 - _SQRT_2 / 2.0

HEUN = Tableau(
    alpha=torch.tensor([1.0], dtype=torch.float64),
    beta=[torch.tensor([gamma, math.pi / 4], dtype=torch.float64)],
    c_sol=torch.tensor([0.5, 0.5], dtype=torch.float64),
)

A = [1 / 18, 1 / 12, 1 / 8]
B = [[1 / 18], [1 / 48, 1 / 16]]
A = torch.tensor(A, dtype=torch.float64)
B = [torch.tensor(b, dtype=torch.float64) for b in B]
COEFFS = [[1, 2], [3, 4]]
DIVIDED = [torch.tensor([c / d for c in row], dtype=torch.float64) for row, d in zip(COEFFS, [2, 3])]
FROM_TENSORS = [torch.tensor([c / 2 for c in row], dtype=torch.float64) for row in B]
LEGACY = torch.tensor([1 / 3, 2 / 3]).double()


class Solver:
    order = torch.tensor([1, 2], dtype=torch.float64)
