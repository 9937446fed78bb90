from .base import Movable


class Octree(Movable):
    def cuda(self, non_blocking: bool = False):
        return self.to("cuda", non_blocking)

    def to_gpu(self):
        return self.to("cuda")
