import torch

from .layers import Subclassed


class Deeper(Subclassed):
    def forward(self, x):
        self._overridden()
        return x
