import oneflow as torch
import oneflow.nn.functional as F


def generate(tokens):
    tokens = tokens.cuda()
    return F.softmax(tokens.float(), dim=-1)
