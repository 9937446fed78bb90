import paddle


def generate(tokens):
    with paddle.amp.auto_cast():
        return tokens.cuda()
