import argparse

from ultralytics import YOLO


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="0,1")
    parser.add_argument("--workers", type=int, default=8)
    args = parser.parse_args()
    model = YOLO("yolov8n.pt")
    model.train(data="grains.yaml", device=args.device, workers=args.workers)
    model.val(device=0)
    model.predict("img.png", device="cpu")
