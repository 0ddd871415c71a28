#!/usr/bin/env python3
"""The index reader alone, one OpenCV thread: per crop, the batch form (vision/model/reader.onnx, one
crop per batch row) against the strip form (reader_strip.onnx, the model's crops side by side), on the
same random crops, alternating the two so that a busy machine slows both alike.

  python3 bench/reader_strip_bench.py [--crops 64] [--rounds 10]

Prints the fastest and the median of the rounds, in ms a crop, and the largest difference between the
two forms' outputs (they are one network)."""
import argparse
import json
import os
import time

import cv2
import numpy as np

MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vision", "model")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--crops", type=int, default=64, help="crops a frame reads (the bench frame reads 62)")
    ap.add_argument("--rounds", type=int, default=10)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    reader = json.load(open(os.path.join(MODEL, "model.json")))["reader"]
    side, strip = reader["crop"], reader["strip"]
    k, pitch = strip["crops"], strip["pitch"]
    batch_net = cv2.dnn.readNetFromONNX(os.path.join(MODEL, reader["onnx"]))
    strip_net = cv2.dnn.readNetFromONNX(os.path.join(MODEL, strip["onnx"]))
    crops = np.random.default_rng(1).uniform(0, 1, (args.crops, 3, side, side)).astype(np.float32)
    strips = []
    for first in range(0, args.crops, k):
        s = np.zeros((1, 4, side, pitch * k), np.float32)
        for j, c in enumerate(crops[first:first + k]):
            s[0, :3, :, j * pitch:j * pitch + side] = c
            s[0, 3, :, j * pitch:j * pitch + side] = 1
        strips.append(s)

    def run_batch():
        batch_net.setInput(crops)
        return batch_net.forward()[:, :, 0, 0]

    def run_strip():
        out = []
        for s in strips:
            strip_net.setInput(s)
            out.append(strip_net.forward()[0, :, 0, :].T)
        return np.concatenate(out)[:args.crops]

    diff = float(np.abs(run_batch() - run_strip()).max())
    times = {"batch": [], "strip": []}
    for _ in range(args.rounds):
        for name, f in (("batch", run_batch), ("strip", run_strip)):
            t = time.perf_counter()
            for _ in range(5):
                f()
            times[name].append((time.perf_counter() - t) / 5 * 1000 / args.crops)
    for name, v in times.items():
        v.sort()
        print(f"{name}: fastest {v[0]:.3f} ms a crop, median {v[len(v) // 2]:.3f}")
    print(f"{args.crops} crops, strips of {k}; largest difference between the two forms' outputs: {diff:.2e}")


if __name__ == "__main__":
    main()
