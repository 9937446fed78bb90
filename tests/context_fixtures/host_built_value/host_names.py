import torch


def filter_detections(outputs, threshold):
    logits = outputs["logits"].sigmoid()[0]
    boxes = outputs["boxes"][0]
    logits_filt = logits.cpu().clone()
    boxes_filt = boxes.cpu()
    mask = logits_filt.max(dim=1)[0] > threshold
    logits_filt = logits_filt[mask]
    boxes_filt = boxes_filt[mask]
    return logits_filt, boxes_filt


def class_counts(labels):
    ids = torch.as_tensor(labels.numpy())
    return torch.unique(ids)


# look-alikes: no `.cpu()` on the way, or moved back to a device before the filter


def filter_on_device(outputs, threshold):
    logits_filt = outputs["logits"].sigmoid()[0].clone()
    mask = logits_filt.max(dim=1)[0] > threshold
    logits_filt = logits_filt[mask]
    return logits_filt


def filter_moved_back(outputs, threshold, device):
    scores = outputs["scores"].cpu()
    scores = scores.to(device)
    scores = scores[scores > threshold]
    return scores


def resize_grid(posemb, size):
    tok, grid = (posemb[:, :1], posemb[0, 1:])
    grid = grid.reshape(1, 4, 4, -1)
    grid = torch.nn.functional.interpolate(grid, size=size, mode="bilinear")
    posemb = torch.cat([tok, grid], dim=1)
    return posemb


def keep_confident(prediction, threshold):
    candidates = prediction[..., 4] > threshold
    kept = []
    for i, x in enumerate(prediction):
        x = x[candidates[i]]
        kept.append(x)
    return kept
