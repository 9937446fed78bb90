import os

import torch

from utils.tools import EarlyStopping


class Exp_Main:
    def train(self, setting):
        path = os.path.join(self.args.checkpoints, setting)
        early_stopping = EarlyStopping(patience=self.args.patience, verbose=True)
        for epoch in range(self.args.train_epochs):
            vali_loss = self.vali()
            early_stopping(vali_loss, self.model, path)
            if early_stopping.early_stop:
                break
        best_model_path = path + '/' + 'checkpoint.pth'
        self.model.load_state_dict(torch.load(best_model_path))
        return self.model

    def test(self, setting, test=0):
        if test:
            self.model.load_state_dict(torch.load(os.path.join('./checkpoints/' + setting, 'checkpoint.pth')))
        return self.model

    def resume(self, path, other):
        early_stopping = EarlyStopping(patience=3)
        early_stopping(0.0, self.model, path)
        self.model.load_state_dict(torch.load(other + '/checkpoint.pth'))
