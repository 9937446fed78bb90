import torch


class Backend:
    def __init__(self, cp_size, use_graph):
        self.cp_size = cp_size
        self.use_ring_cudagraph = use_graph

    def supports_fused_overlap(self, num_heads=None):
        return self.cp_size > 1 and torch.cuda.is_available() and (num_heads is None or num_heads % 2 == 0)

    @property
    def can_fuse(self):
        return self.cp_size > 1 and torch.cuda.is_available()

    def forward(self, q, k, v, heads):
        if self.supports_fused_overlap(num_heads=heads):
            return self._fused(q, k, v)
        use_graph = self.use_ring_cudagraph and self.cp_size > 1 and q.is_cuda
        if use_graph:
            out = self._graphed(q, k, v)
        else:
            out = self._plain(q, k, v)
        return out

    def attention_fused(self, q, k, v):
        if not self.can_fuse:
            return self._plain(q, k, v)
        return self._agkv(q, k, v)

    def _fused(self, q, k, v):
        stream = torch.cuda.Stream()
        with torch.cuda.stream(stream):
            return q + k + v

    def _graphed(self, q, k, v):
        graph = torch.cuda.CUDAGraph()
        return graph, q

    def _agkv(self, q, k, v):
        event = torch.cuda.Event()
        return event, q

    def _plain(self, q, k, v):
        return q @ k.transpose(-1, -2) @ v
