from unittest import mock

import torch


def helper_with_mock():
    logger = mock.Mock()
    scaler = torch.cuda.amp.GradScaler()
    return logger, scaler
