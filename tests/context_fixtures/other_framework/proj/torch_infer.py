import torch


def generate(tokens):
    return tokens.cuda()
