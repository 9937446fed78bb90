import torch


def simulate(times):
    t0 = torch.tensor([0.0]).to(times)
    return times[times > t0]


if __name__ == "__main__":
    print(simulate(torch.linspace(0, 1, 10)))
