import os

ON_TPU = os.environ.get("PJRT_DEVICE", "") == "TPU"
os.environ.setdefault("PJRT_DEVICE", "CPU")
os.environ["PJRT_DEVICE"] = "NEURON"
