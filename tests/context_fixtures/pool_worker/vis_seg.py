import multiprocessing

import torch
import torch.nn.functional as F

from worker_pool import WorkerPool


def img_save_and_viz(image, result, output_path):
    image = image.data.numpy()
    seg = F.interpolate(result.unsqueeze(0), size=image.shape[:2], mode="bilinear").squeeze(0)
    return seg.argmax(0).numpy()


def save_mask(result, output_path):
    mask = result[result > 0.5]
    torch.save(mask, output_path)


def refine(result, device):
    result = result.to(device)
    return F.interpolate(result.unsqueeze(0), scale_factor=2, mode="bilinear")  # expect: TRN191


def postprocess(result):
    return F.interpolate(result.unsqueeze(0), scale_factor=2, mode="bilinear")  # expect: TRN191


def main(model, loader):
    pool = WorkerPool(img_save_and_viz, processes=4)
    with multiprocessing.Pool(4) as workers:
        for image, batch in loader:
            result = model(batch.cuda())
            pool.run_async([(image, result.cpu(), "out.png")])
            workers.apply_async(save_mask, (result.cpu(), "mask.pt"))
            workers.map(refine, [(result, "cuda")])
            postprocess(result)
