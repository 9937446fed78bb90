import torch.nn.functional as F


class ResizeLongestSide:
    def apply_image(self, image, size):
        return F.interpolate(image, size, mode="bilinear")
