import argparse

import sounddevice


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="0")
    args = parser.parse_args()
    sounddevice.rec(16000, device=1)
    return args
