import numpy as np
import torch

model = torch.nn.Linear(4, 2).cuda()


def collect_predictions(loader):
    all_logits = []
    all_labels = []
    for images, labels in loader:
        logits = model(images.cuda())
        all_logits.append(logits.cpu())
        all_labels.append(labels.cpu())
    return {
        "logits": torch.cat(all_logits),
        "labels": torch.cat(all_labels),
    }


def collect_on_device(loader):
    all_logits = []
    for images, _ in loader:
        all_logits.append(model(images.cuda()))
    return {"logits": torch.cat(all_logits)}


val_preds = collect_predictions([])
dev_preds = collect_on_device([])
scores = []
for thr in np.linspace(0.1, 0.9, 5):
    pred_bin = (torch.sigmoid(val_preds["logits"]) > thr).float()
    tam_mask = val_preds["labels"] == 1
    tp = (pred_bin[tam_mask] * val_preds["logits"][tam_mask]).sum(dim=(1, 2, 3))
    scores.append(tp.mean().item())
    kept = dev_preds["logits"][dev_preds["logits"] > thr]
    scores.append(kept.mean().item())
