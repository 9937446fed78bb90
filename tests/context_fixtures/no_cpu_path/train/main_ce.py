import torch


def set_model(model, criterion):
    if torch.cuda.is_available():
        if torch.cuda.device_count() > 1:
            model = torch.nn.DataParallel(model)
        model = model.cuda()
        criterion = criterion.cuda()
        print(torch.cuda.max_memory_allocated())
    return model, criterion


def train(model, images):
    images = images.cuda(non_blocking=True)
    return model(images)
