import torch


def main(g, data, model, opt, epochs):
    train_mask = g.ndata["train_mask"]
    train_idx = torch.nonzero(train_mask, as_tuple=False).squeeze()
    val_nid = g.ndata["val_mask"].nonzero().squeeze()
    test_idx = data.test_mask.nonzero(as_tuple=False).view(-1)
    rest = (~data.train_mask).nonzero(as_tuple=False).view(-1)
    keep = torch.nonzero(data.valid_mask)
    for epoch in range(epochs):
        logits = model(g)
        batch = torch.nonzero(train_mask).squeeze()
        loss = logits[batch].sum()
        loss.backward()
        opt.step()
    return train_idx, val_nid, test_idx, rest, keep
