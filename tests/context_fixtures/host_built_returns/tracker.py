import torch


class Tracker:
    def refine(self, feats, boxes):
        output_boxes, output_iou = self.optimize_boxes(feats, boxes)
        aspect = output_boxes[:, 2] / output_boxes[:, 3]
        keep = (aspect < 4) * (aspect > 0.25)
        output_boxes = output_boxes[keep, :]
        return output_boxes, output_iou

    def optimize_boxes(self, feats, boxes):
        if self.relative:
            return self.optimize_relative(feats, boxes)
        out = self.net(feats, boxes)
        return out.view(-1, 4).cpu(), out.detach().view(-1).cpu()

    def optimize_relative(self, feats, boxes):
        out = self.net(feats, boxes)
        return out.cpu(), out.sum(1).cpu()

    def score(self, feats, boxes):
        scores = self.predict(feats, boxes)
        keep = scores > 0.5
        return scores[keep]

    def predict(self, feats, boxes):
        if self.fast:
            return self.net(feats, boxes)
        return self.net(feats, boxes).cpu()
