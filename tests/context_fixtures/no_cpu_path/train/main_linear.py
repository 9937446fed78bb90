import torch


def set_model(model, n_gpu):
    if torch.cuda.is_available():
        model = torch.nn.DataParallel(model)
        model = model.cuda()
    return model


def set_heads(heads, n_gpu):
    if torch.cuda.is_available():
        if n_gpu > 1:
            heads = torch.nn.DataParallel(heads)
        heads = heads.cuda()
    return heads


def train(model, images):
    images = images.cuda(non_blocking=True)
    return model(images)
