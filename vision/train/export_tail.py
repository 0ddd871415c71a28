#!/usr/bin/env python3
"""Export the detector's tail: the network from the s4 stage's output on (CornerNet.tail), as
cards_tail.onnx beside cards.onnx, and name it in model.json ("tail").

Why: the recogniser computes the stem and s4 itself (vision/detector_front.hpp), 2x faster than
OpenCV 4.6 on those full-resolution layers, and by default the rest as well (vision/detector_tail.hpp);
where it does not (`eval --dnn-tail`, or a detector of another shape) it hands their output to cv::dnn
for the rest, which is this file. The front's
weights come from cards.onnx itself at load time; the tail must be the same network's, so this script
refuses unless the weights it exports (--state, the committed detector.npz) give cards.onnx's outputs in
OpenCV, and checks that OpenCV's tail on cards.onnx's own s4 output gives cards.onnx's maps.

  python3 vision/train/export_tail.py --model vision/model --state vision/model/detector.npz

train.py calls export_tail() after each export, so a retrained detector comes with its tail.
"""
import argparse
import json
import os
import sys

import cv2
import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import feed  # noqa: E402
from model import CornerNet  # noqa: E402

# The input the tail is exported at; cv::dnn reshapes it for other frame sizes (multiples of 32).
FRONT_CHANNELS, FRONT_STRIDE = 32, 4
# The last layer of the front in cv::dnn's names for cards.onnx's nodes (torch names them by module).
FRONT_LAST = "/s4/s4.1/s4.1.5/Relu"


class Tail(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.m = model

    def forward(self, x):
        return self.m.tail(x)


def export_tail(model, out, rng, side=640):
    """Writes out/cards_tail.onnx (+ .sha256) and returns its model.json entry. Checks in OpenCV 4.6: the
    tail against torch's, and the whole of cards.onnx against its front (run by cv::dnn) then the tail."""
    model.eval()
    path = os.path.join(out, "cards_tail.onnx")
    x = torch.zeros(1, FRONT_CHANNELS, side // FRONT_STRIDE, side // FRONT_STRIDE)
    # Tail(model) in eval mode: torch.onnx.export restores the module's mode afterwards, and a Tail left in
    # training mode would put the detector's batch norms back into training mode with it.
    torch.onnx.export(Tail(model).eval(), x, path, opset_version=11, input_names=["s4"], output_names=["maps"],
                      do_constant_folding=True)
    image = rng.uniform(0, 1, (1, 3, side, side)).astype(np.float32)
    with torch.no_grad():
        s4 = model.front(torch.from_numpy(image))
        want = model(torch.from_numpy(image)).numpy()
    tail = cv2.dnn.readNetFromONNX(path)
    tail.setInput(s4.numpy())
    diff = float(np.abs(tail.forward() - want).max())
    # cards.onnx's own front, then this tail, against cards.onnx whole: the two files are one network.
    whole = cv2.dnn.readNetFromONNX(os.path.join(out, "cards.onnx"))
    whole.setInput(image)
    last = next(n for n in whole.getLayerNames() if n.endswith(FRONT_LAST))
    front_out, maps = whole.forward([last, whole.getUnconnectedOutLayersNames()[0]])
    tail.setInput(front_out)
    split_diff = float(np.abs(tail.forward() - maps).max())
    if split_diff > 1e-3:
        raise SystemExit(f"{path}: cards.onnx's front followed by this tail differs from cards.onnx by {split_diff:.2e}: "
                         "the weights are not cards.onnx's")
    sha = feed.accept_export(path, diff, "torch")
    return dict(onnx="cards_tail.onnx", sha256=sha, front="cornernet-s4", channels=FRONT_CHANNELS,
                stride=FRONT_STRIDE, opencv_vs_torch_max_abs_diff=diff, split_vs_whole_max_abs_diff=split_diff)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True, help="folder with model.json and cards.onnx")
    ap.add_argument("--state", required=True, help="the detector's weights (detector.npz) that cards.onnx was exported from")
    ap.add_argument("--seed", type=int, default=10)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    model = CornerNet()
    feed.load_state(model, args.state)
    entry = export_tail(model, args.model, np.random.default_rng(args.seed))
    meta_path = os.path.join(args.model, "model.json")
    with open(meta_path) as f:
        meta = json.load(f)
    meta["tail"] = entry
    with open(meta_path, "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    print("wrote", entry["onnx"], entry["sha256"], flush=True)


if __name__ == "__main__":
    main()
