def to_cuda(*args):
    return [None if x is None else x.cuda() for x in args]
