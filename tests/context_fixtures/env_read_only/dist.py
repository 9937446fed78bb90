import os
from os import environ

level = os.environ.get("NCCL_DEBUG", "")
threads = os.getenv("NCCL_SOCKET_NTHREADS")
proto = os.environ["NCCL_PROTO"]
gdr = "NCCL_NET_GDR_LEVEL" in environ
os.environ["NCCL_LL_THRESHOLD"] = "0"
os.environ.setdefault("NCCL_IB_DISABLE", "1")
environ["NCCL_ALGO"] = "Ring"
