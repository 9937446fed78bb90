def describe(args, world_size):
    summary = {**vars(args), "ngpus": 8}
    args.n_gpu = 1
    launch(main, num_gpus=4)
    return summary
