import torch


def softmax_buffer(q, n, seqlen_q, seqlen_k, return_softmax):
    if return_softmax:
        if torch.cuda.is_available() and torch.version.hip:
            p = torch.empty((n, seqlen_q, seqlen_k), dtype=q.dtype, device=q.device)
        else:
            p = torch.empty((n, seqlen_q * 2, seqlen_k * 2), dtype=q.dtype, device=q.device)
        return p
    return None


HAS_HIP = torch.cuda.is_available() and torch.version.hip is not None


def layout_flag():
    return torch.cuda.is_available() and getattr(torch.version, "hip", None)


# still reported: a CUDA test joined with the negation of a ROCm test, or by `or`
def setup_nvidia():
    if torch.cuda.is_available() and not torch.version.hip:
        torch.cuda.set_device(0)


def setup_any_gpu():
    if torch.cuda.is_available() or torch.version.hip:
        torch.cuda.set_device(0)
