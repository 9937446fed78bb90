import torch


def main():
    torch.distributed.init_process_group("nccl")
    torch.cuda.set_device(torch.distributed.get_rank())


if __name__ == "__main__":
    main()
