#!/usr/bin/env bash
# Launch on every GPU of the host.
torchrun --nproc_per_node=gpu train.py
