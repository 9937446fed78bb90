import torch


def save_results(path, seed):
    lines = [f"seed: {seed}"]
    lines.append(f"device: {torch.cuda.get_device_name() if torch.cuda.is_available() else 'cpu'}")
    with open(path, "w") as f:
        f.write("\n".join(lines))


def device_of(rank):
    return f"{'cuda' if torch.cuda.is_available() else 'cpu'}:{rank}"
