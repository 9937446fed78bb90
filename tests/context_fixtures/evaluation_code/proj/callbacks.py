import torch


class EvalCallback:
    def on_evaluate(self, model, data_loader):
        kept = []
        for batch in data_loader:
            labels = model(batch)
            kept.append(labels[labels != -100])
        done = torch.cat(kept)
        return done[done > 0]
