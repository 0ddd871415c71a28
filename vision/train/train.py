#!/usr/bin/env python3
"""Train the corner-index network, export it to ONNX for OpenCV's cv::dnn, and write its metadata.

  nice -n 15 python3 vision/train/train.py --corpus /work/shared/data/corpus/images/roboflow_card_detection_v12 \
      --out vision/model --minutes 45

On a machine with an accelerator: `--device cuda --workers 6 --batch 64 --no-export` trains and writes
the weights (--state) and the run's record beside them; then, here, `--resume STATE --minutes 0` exports
them with Debian's torch and checks the file in OpenCV 4.6 (feed.py says why).

Writes to --out: cards.onnx, cards.onnx.sha256, model.json (arguments, seed, data sources and their
licence, network layout), train_images.txt / held_out_images.txt (the exact split, by capture).
`--smoke` trains for a few steps only (CI). Real training is run once by a person; CI never runs it.
"""
import argparse
import json
import os
import random
import sys
import time

import cv2
import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402
import feed  # noqa: E402
import synth  # noqa: E402
from export_tail import export_tail  # noqa: E402
from model import CHANNELS, FEAT, RANKS, STRIDE, SUITS, CornerNet, macs  # noqa: E402

def trained_decks(training):
    """The Debian decks a run's synthetic images came from (its --decks; runs before the option: standard)."""
    return synth.deck_list(training.get("args", {}).get("decks") or "standard")


def attribution(decks):
    """Whose images a model learnt from: the CC BY 4.0 photographs, and the decks its synthetic ones came from."""
    return ("Real photographs: Roboflow Universe 'card-detection-zk7wu' v12 by cadyzedevelopmenthub, "
            "CC BY 4.0, https://universe.roboflow.com/cadyzedevelopmenthub/card-detection-zk7wu/dataset/12 "
            "(copied via github.com/Ammememe/CardCounterML a0e040bd). Synthetic images rendered from "
            "Debian kdegames-card-data-kf5 decks: " + ", ".join(decks) + ".")


def load_real(root, exclude_groups):
    names = corpus.read_names(root)
    train, test = [], []
    for g, d in corpus.groups(root):
        files = corpus.images(d)
        tr, te = corpus.split(files)
        if g in exclude_groups:
            tr, te = [], files  # leave-one-group-out: the whole group is unseen
        for part, lst in ((train, tr), (test, te)):
            for f in lst:
                lab = os.path.join(d, "labels", os.path.splitext(f)[0] + ".txt")
                boxes = corpus.read_labels(lab, names) if os.path.exists(lab) else []
                part.append((g, os.path.join(d, "images", f), boxes))
    return train, test


def gaussian_target(out, boxes, crop):
    """CenterNet targets at stride 8 for boxes in crop pixels."""
    n = crop // STRIDE
    heat = np.zeros((n, n), np.float32)
    cls = np.full((2, n, n), -100, np.int64)  # rank, suit; -100 = ignored by cross_entropy
    size = np.zeros((2, n, n), np.float32)
    centre = np.zeros((n, n), np.float32)
    yy, xx = np.mgrid[0:n, 0:n]
    for cx, cy, w, h, card in boxes:
        gx, gy = cx / STRIDE, cy / STRIDE
        if not (0 <= gx < n and 0 <= gy < n):
            continue
        if card is None:
            continue  # BACK, jokers: background
        sigma = max(0.6, min(w, h) / STRIDE / 4)
        g = np.exp(-((xx + 0.5 - gx) ** 2 + (yy + 0.5 - gy) ** 2) / (2 * sigma ** 2))
        heat = np.maximum(heat, g)
        ix, iy = int(gx), int(gy)
        near = g > 0.3
        cls[0][near] = card[0]
        cls[1][near] = card[1]
        heat[iy, ix] = 1.0
        centre[iy, ix] = 1.0
        size[:, iy, ix] = (np.log(max(w, 2) / STRIDE), np.log(max(h, 2) / STRIDE))
    return heat, cls, size, centre


def augment_real(rng, img, boxes, crop):
    """A crop around a random labelled index, random scale and rotation, colour jitter."""
    H, W = img.shape[:2]
    pix = [(cx * W, cy * H, w * W, h * H, c) for cx, cy, w, h, c in boxes]
    if pix and rng.random() < 0.9:
        t = pix[int(rng.integers(len(pix)))]
        px, py = t[0] + rng.uniform(-crop / 3, crop / 3), t[1] + rng.uniform(-crop / 3, crop / 3)
    else:
        px, py = rng.uniform(0, W), rng.uniform(0, H)
    s = float(np.exp(rng.uniform(np.log(0.5), np.log(1.3))))
    ang = rng.uniform(-180, 180)
    M = cv2.getRotationMatrix2D((px, py), ang, s)
    M[:, 2] += (crop / 2 - px, crop / 2 - py)
    out = cv2.warpAffine(img, M, (crop, crop), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    nb = []
    for cx, cy, w, h, c in pix:
        x, y = M @ np.array([cx, cy, 1.0])
        # rotated box: bounding box of the turned rectangle
        a = np.deg2rad(ang)
        rw = s * (abs(w * np.cos(a)) + abs(h * np.sin(a)))
        rh = s * (abs(w * np.sin(a)) + abs(h * np.cos(a)))
        nb.append((x, y, rw, rh, c))
    return out, nb


def photometric(rng, img):
    img = img.astype(np.float32)
    img = img * rng.uniform(0.7, 1.3) + rng.uniform(-25, 25)
    img = img * (1 + rng.uniform(-0.1, 0.1, 3))
    if rng.random() < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2))
    img += rng.normal(0, rng.uniform(0, 6), img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def to_tensor(img):
    # BGR uint8 -> the network's input: RGB? No: BGR as OpenCV reads it, scaled to 0..1 (blobFromImage scale 1/255)
    return torch.from_numpy(img.astype(np.float32).transpose(2, 0, 1) / 255.0)


def focal(pred, gt):
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    pl = torch.log(pred) * (1 - pred) ** 2 * pos
    nl = torch.log(1 - pred) * pred ** 2 * (1 - gt) ** 4 * neg
    npos = pos.sum().clamp(min=1)
    return -(pl.sum() + nl.sum()) / npos


def batch(rng, real, images, faces, crop, bs, synth_share, recolour_share=0.0):
    xs, hs, cs, ss, ms = [], [], [], [], []
    for _ in range(bs):
        if faces and (not real or rng.random() < synth_share):
            img, boxes = synth.scene(rng, faces, crop, recolour_share)
        else:
            i = int(rng.integers(len(real)))
            img, boxes = augment_real(rng, images[i], real[i][2], crop)
            img = photometric(rng, img)
        h, c, s, m = gaussian_target(None, boxes, crop)
        xs.append(to_tensor(img))
        hs.append(h)
        cs.append(c)
        ss.append(s)
        ms.append(m)
    return (torch.stack(xs), torch.from_numpy(np.stack(hs))[:, None], torch.from_numpy(np.stack(cs)),
            torch.from_numpy(np.stack(ss)), torch.from_numpy(np.stack(ms))[:, None])


def losses(out, heat, cls, size, centre):
    lh = focal(out[:, 0:1], heat)
    lr = F.cross_entropy(out[:, 1:14], cls[:, 0], ignore_index=-100)
    ls = F.cross_entropy(out[:, 14:18], cls[:, 1], ignore_index=-100)
    if torch.isnan(lr):
        lr = out.sum() * 0
    if torch.isnan(ls):
        ls = out.sum() * 0
    lz = (F.l1_loss(out[:, 18:20], size, reduction="none") * centre).sum() / centre.sum().clamp(min=1)
    return lh, lr, ls, lz


def export(model, path):
    model.eval()
    torch.onnx.export(model, torch.zeros(1, 3, 640, 640), path, opset_version=11, input_names=["image"],
                      output_names=["maps"], do_constant_folding=True)
    strip_identity(path)


def strip_identity(path):
    """torch 1.13 emits Identity nodes that OpenCV 4.6 rejects: rewire their consumers and drop them."""
    try:
        import onnx
    except ImportError:
        return
    m = onnx.load(path)
    g = m.graph
    alias = {n.output[0]: n.input[0] for n in g.node if n.op_type == "Identity"}
    if not alias:
        return
    for n in g.node:
        for i, name in enumerate(n.input):
            while name in alias:
                name = alias[name]
            n.input[i] = name
    for o in g.output:
        if o.name in alias:
            raise SystemExit("graph output is an Identity")
    keep = [n for n in g.node if n.op_type != "Identity"]
    del g.node[:]
    g.node.extend(keep)
    onnx.save(m, path)


def check_with_opencv(model, path, rng):
    """The exported file must load in cv::dnn and give torch's outputs."""
    net = cv2.dnn.readNetFromONNX(path)
    x = rng.uniform(0, 1, (1, 3, 640, 640)).astype(np.float32)
    net.setInput(x)
    a = net.forward()
    with torch.no_grad():
        b = model(torch.from_numpy(x)).numpy()
    return float(np.abs(a - b).max())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True, help="YOLO-layout folder of photo groups (with data.yaml)")
    ap.add_argument("--out", required=True, help="where cards.onnx and its metadata go")
    ap.add_argument("--cache", default="/tmp/cardtable-vision-cache", help="rendered card faces")
    ap.add_argument("--minutes", type=float, default=45, help="wall-clock training budget")
    ap.add_argument("--crop", type=int, default=160)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--lr", type=float, default=4e-3)
    ap.add_argument("--synth-share", type=feed.share, default=0.35, help="share of synthetic images per batch")
    ap.add_argument("--exclude-group", action="append", default=[], help="leave this group out (unseen-deck run)")
    ap.add_argument("--seed", type=int, default=10)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--smoke", action="store_true", help="a few steps only: CI checks the script runs")
    feed.add_run_options(ap, log_every=10, state="detector.npz")
    ap.add_argument("--resumed-steps", type=int, default=0, help="steps the checkpoint had (when it has no record)")
    args = ap.parse_args()
    decks = synth.deck_list(args.decks)  # a deck that does not exist is refused before anything loads
    feed.single_threaded_opencv(args.workers)

    torch.manual_seed(args.seed)
    random.seed(args.seed)
    rng = np.random.default_rng(args.seed)
    torch.set_num_threads(args.threads)
    os.makedirs(args.out, exist_ok=True)

    real, held = load_real(args.corpus, set(args.exclude_group))
    with open(os.path.join(args.out, "train_images.txt"), "w") as f:
        f.writelines(f"{g}/{os.path.basename(p)}\n" for g, p, _ in real)
    with open(os.path.join(args.out, "held_out_images.txt"), "w") as f:
        f.writelines(f"{g}/{os.path.basename(p)}\n" for g, p, _ in held)
    images = [cv2.imread(p, cv2.IMREAD_COLOR) for _, p, _ in real]  # decoded once: workers share them
    faces = synth.render_decks(args.cache, decks)
    print(f"{len(real)} training photos, {len(held)} held out, {len(faces)} rendered faces", flush=True)

    dev = feed.device(args.device)
    model = CornerNet()
    resumed = feed.read_record(args.resume)
    if args.resume:
        feed.load_state(model, args.resume)
    model.to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    budget = 60 * (0.3 if args.smoke else args.minutes)
    state = args.state or os.path.join(args.cache, "detector.npz")
    os.makedirs(os.path.dirname(os.path.abspath(state)), exist_ok=True)
    stream = feed.batches(lambda r: batch(r, real, images, faces, args.crop, args.batch, args.synth_share,
                                          args.recolour_share), rng, args.seed, args.workers) if budget > 0 else None
    start = time.time()
    step = 0
    log = []

    def record():
        return dict(args=vars(args), steps=step + args.resumed_steps, minutes=round((time.time() - start) / 60, 1),
                    device=torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu",
                    train_images=len(real), held_out_images=len(held), rendered_faces=len(faces),
                    last_losses=log[-1] if log else None)

    keeper = feed.Keeper(state, record)

    while budget > 0:
        elapsed = time.time() - start
        if elapsed >= budget or (args.smoke and step >= 3):
            break
        frac = elapsed / budget
        lr = args.lr * min(1.0, (step + 1) / 20) * 0.5 * (1 + np.cos(np.pi * frac))  # warm-up, cosine by time
        for gr in opt.param_groups:
            gr["lr"] = lr
        model.train()
        x, h, c, s, m = (t.to(dev, non_blocking=True) for t in next(stream))
        lh, lr_, ls, lz = losses(model(x), h, c, s, m)
        loss = lh + lr_ + ls + 0.1 * lz
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % args.log_every == 0 or args.smoke:
            row = dict(step=step, minutes=round(elapsed / 60, 2), lr=lr, heat=lh.item(), rank=lr_.item(),
                       suit=ls.item(), size=lz.item())
            log.append(row)
            print(json.dumps(row), flush=True)
        keeper.tick(model)
    training = keeper.finish(model, budget > 0, resumed)
    if args.no_export:
        print("wrote", state, flush=True)
        return

    onnx_path = os.path.join(args.out, "cards.onnx")
    export(model, onnx_path)
    diff = check_with_opencv(model, onnx_path, rng)
    sha = feed.accept_export(onnx_path, diff, "torch")
    tail = export_tail(model, args.out, rng)  # the network from s4 on, for the C++ front (export_tail.py)
    learnt = trained_decks(training)  # the training run's decks, not this (export) run's
    meta = dict(
        format="cardtable-vision-model", version=1, onnx="cards.onnx", sha256=sha,
        input=dict(width=640, height=640, channels="BGR", scale=1 / 255.0),
        output=dict(stride=STRIDE, heat=0, rank=1, suit=14, size=18, feat=20, channels=CHANNELS, feat_dim=FEAT),
        ranks=RANKS, suits=SUITS, gmac_640=round(macs(CornerNet()) / 1e9, 3),
        training=dict(training, opencv_vs_torch_max_abs_diff=diff),
        synthetic_decks=learnt,
        attribution=attribution(learnt),
        tail=tail)
    with open(os.path.join(args.out, "model.json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    print("wrote", onnx_path, sha, flush=True)


if __name__ == "__main__":
    main()
