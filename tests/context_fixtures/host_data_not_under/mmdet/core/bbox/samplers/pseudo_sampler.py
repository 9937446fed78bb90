import torch


class PseudoSampler:
    def sample(self, assign_result, bboxes):
        pos_inds = torch.nonzero(assign_result.gt_inds > 0).squeeze(-1).unique()
        return pos_inds
