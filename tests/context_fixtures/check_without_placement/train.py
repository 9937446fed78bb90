import torch


def log_columns(fields):
    if torch.cuda.is_available():
        fields.append("max mem")
    return fields


def place(model):
    if torch.cuda.is_available():
        model = model.cuda()
    return model


def pick():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    return device


def need_gpu():
    if not torch.cuda.is_available():
        raise RuntimeError("this script needs a GPU")


def fingerprint(h):
    if torch.cuda.is_available() and torch.cuda.device_count() > 1:
        h.update(str(torch.cuda.get_device_capability()).encode())


USE_CUDA = torch.cuda.is_available()


class Loop:
    def __init__(self):
        self.sync_cuda = torch.cuda.is_available()
        self.use_cuda = torch.cuda.is_available()

    def step(self):
        if self.use_cuda:
            return "cuda"


def local_flag():
    have_gpu = torch.cuda.is_available()
    print("ready")


def report(logger):
    print("CUDA is available:", torch.cuda.is_available())
    print(f"CUDA AVAILABLE?: {torch.cuda.is_available()}")
    logger.info("gpus: %d" % torch.cuda.device_count())
    return str(torch.cuda.is_available())


class LoaderIter:
    def __init__(self, loader):
        # RCAN's copied loader: the query only decides whether host memory is page-locked
        self.pin_memory = loader.pin_memory and torch.cuda.is_available()


def wrap(model, device):
    if torch.cuda.device_count() > 1:
        model = torch.nn.DataParallel(model)
    model.to(device)
    if torch.cuda.device_count() > 1:
        model = torch.nn.DataParallel(model).cuda()
    return model
