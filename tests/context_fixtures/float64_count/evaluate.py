import torch


def accuracy(out, labels):
    predictions = torch.argmax(out, 1)
    return (labels == predictions).sum(dtype=torch.float64) / labels.size(0)


def evaluate(model, loader, device):
    total_correct = torch.zeros(1, dtype=torch.float64, device=device)
    num_samples = torch.zeros(1, dtype=torch.float64, device=device)
    total_log_probs = torch.zeros(1, dtype=torch.float64, device=device)
    correction = torch.zeros(1, dtype=torch.float64, device=device)
    weighted = out_sum = None
    for x, y in loader:
        out = model(x)
        total_correct += (out.argmax(1) == y).sum()
        num_samples += y.numel()
        total_log_probs += out.log_softmax(-1).sum()
        weighted = (out * y).sum(dtype=torch.float64)
    return total_correct / num_samples, total_log_probs, correction, weighted, out_sum
