import cv2
import numpy as np
from skimage import measure, morphology
import numpy.typing as npt
import pandas as pd
import torch

from .utils import to_numpy


def centers(embeddings: np.ndarray, labels: np.ndarray):
    return np.stack([embeddings[labels == i].mean(0) for i in range(labels.max() + 1)])


def typed(points: npt.NDArray[np.float32], keep):
    return points[points[:, 2] > 0], keep.nonzero()


def decode(keypoints, scores, keep_inds):
    keypoints = keypoints.sigmoid()
    keypoints, scores = to_numpy((keypoints, scores))
    return keypoints[keep_inds], scores[scores > 0.5]


def still_tensors(keypoints, scores: torch.Tensor):
    keep = scores > 0.5
    return keypoints[keep], scores[keep]


def rebound(labels: np.ndarray, logits):
    labels = torch.from_numpy(labels).to(logits.device)
    return logits[labels > 0]


def branch(flag, keypoints):
    if flag:
        keypoints = to_numpy(keypoints)
    return keypoints[keypoints > 0]


def rescored(root, keypoints, scores, keep_inds):
    keypoints, scores = to_numpy((keypoints, scores))
    scores = to_numpy(root)[..., None] * scores
    weighted = scores * root
    return scores[keep_inds], weighted[weighted > 0]


class IOUEval:
    def fast_hist(self, a, b):
        # ESPNet's metric: `a[k].astype(int)` casts the parameter as NumPy does; a tensor has no astype
        k = (a >= 0) & (a < 19)
        return np.bincount(19 * a[k].astype(int) + b[k], minlength=19 ** 2)

    def tensor_hist(self, a, b):
        # no NumPy cast of `a`: the selection may run on a device tensor
        k = (a >= 0) & (a < 19)
        return torch.bincount(19 * a[k] + b[k], minlength=19 ** 2)


def hop_sites(config_i, config_j):
    # fresh74 (vmc_torch's fermion phases): the difference of two arrays NumPy made is an array; a tensor's is not
    site_i, site_j = (np.asarray(config_i) - np.asarray(config_j)).nonzero()[0]
    moved = (torch.as_tensor(config_i) - config_j).nonzero()
    return site_i, site_j, moved


def instances(sem_mask, cur):
    # fresh81 (Tissue-Image-Segmentation's post-processing): scikit-image and OpenCV return NumPy arrays, so the
    # selection through a mask of the labelled instances runs on the host; a tensor's relu is device code
    inst = morphology.dilation(measure.label(sem_mask))
    inst[inst > 0] += cur
    edges = cv2.Canny(inst.astype(np.uint8), 10, 20)
    kept = torch.relu(torch.as_tensor(edges))
    return edges[edges > 0], kept[kept > 0]


def split(path, phase):
    # fresh80 (CNN_total_Pytorch's split table): a DataFrame pandas read is host data, so selecting its rows through a
    # comparison of a column runs on the host; a tensor built from its values is device-ready data and stays
    table = pd.read_csv(path)
    rows = table[table["phase"] == phase]
    values = torch.as_tensor(rows["y"].values).cuda()
    return rows, values[values > 0]
