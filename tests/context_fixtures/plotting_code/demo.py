import matplotlib.pyplot as plt
import torch


def show_points(coords, labels, ax, marker_size=375):
    pos_points = coords[labels == 1]
    neg_points = coords[labels == 0]
    ax.scatter(pos_points[:, 0], pos_points[:, 1], color="green", s=marker_size)
    ax.scatter(neg_points[:, 0], neg_points[:, 1], color="red", s=marker_size)


def show_masks(masks, scores):
    keep = masks[scores > 0.5]
    plt.imshow(keep.sum(0))


def plot_on_device(points, labels, ax):
    points = torch.as_tensor(points).cuda()
    kept = points[labels == 1]
    ax.scatter(kept[:, 0].cpu(), kept[:, 1].cpu())


def select(points, labels):
    return points[labels == 1]
