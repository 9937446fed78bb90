import os

import torch


class BaseModel:
    def save_network(self, network, label, epoch):
        path = os.path.join(self.save_dir, "%s_net_%s.pth" % (epoch, label))
        torch.save(network.cpu().state_dict(), path)

    def load_network(self, network, label, epoch):
        path = os.path.join(self.save_dir, "%s_net_%s.pth" % (epoch, label))
        network.load_state_dict(torch.load(path))

    def save_optimizer(self, optimizer, epoch):
        torch.save(optimizer.state_dict(), os.path.join(self.save_dir, "%s_optim.pth" % epoch))

    def load_optimizer(self, optimizer, epoch):
        optimizer.load_state_dict(torch.load(os.path.join(self.save_dir, "%s_optim.pth" % epoch)))

    def load_pretrained(self, network):
        network.load_state_dict(torch.load("pretrained/vgg19.pth"))
