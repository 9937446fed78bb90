import matplotlib.pyplot as plt
import torch


def posterior(xs):
    return torch.tensor(xs, dtype=torch.float64).unique()


if __name__ == "__main__":
    ys = posterior([1.0, 2.0, 2.0])
    plt.xlabel("value")
    print(ys)
