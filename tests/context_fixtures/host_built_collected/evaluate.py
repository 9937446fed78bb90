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


# a script's own list, filled with `.detach().cpu()` copies and joined (manifold-contrastive's notebooks, fresh84)
c_list = []
d_list = []
for images, _ in []:
    c = model(images.cuda())
    c_list.append(c.detach().cpu())
    d_list.append(c)
last_c = torch.cat(c_list)
active = last_c[last_c.abs() > 1e-3]
last_d = torch.cat(d_list)
active_d = last_d[last_d.abs() > 1e-3]
scores.append(active.mean().item() + active_d.mean().item())

# the list's own name re-bound to the joined tensor, then indexed (manifold-contrastive's notebooks)
z0_list = []
for images, _ in []:
    z0_list.append(model(images.cuda()).detach().cpu())
z0_list = torch.concat(z0_list)
z0_use = z0_list[z0_list.sum(-1) > 0]
scores.append(z0_use.mean().item())
