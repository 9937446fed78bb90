import argparse
import os

parser = argparse.ArgumentParser(description="Set CUDA_VISIBLE_DEVICES before running")
parser.add_argument('--gpus', default='3', type=str, help='CUDA_VISIBLE_DEVICES')
args = parser.parse_args()
os.environ["CUDA_VISIBLE_DEVICES"] = args.gpus
