#!/usr/bin/env python3
"""Train the index reader (reader.py) on crops of labelled indices: the corpus's training photographs
(never the held-out captures) and synthetic scenes from Debian's card art. Exports reader.onnx beside
the detector and adds it to model.json.

  nice -n 15 python3 vision/train/train_reader.py --corpus .../roboflow_card_detection_v12 --out vision/model --minutes 20

With an accelerator: `--device cuda --workers 4 --batch 256 --no-export`, then here `--resume STATE
--minutes 0` exports with Debian's torch and checks the file in OpenCV 4.6 (as train.py).
"""
import argparse
import json
import os
import sys
import time

import cv2
import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import feed  # noqa: E402
import synth  # noqa: E402
import reader  # noqa: E402  (reader.CROP and reader.STRIP_PITCH: --crop may change them)
from name_lists import read_list  # noqa: E402
from reader import CROP_FILTERS, CROP_SCALE, EMB, OUT, STRIP_CROPS, IndexReader, StripReader, crop, strip_of  # noqa: E402
from train import attribution, load_real, photometric, trained_decks  # noqa: E402


def degrade(rng, c, share):
    """With chance `share`, one of the ways a real index differs from a clean photograph of it
    (vision/README.md, "The model: training and data"): a webcam's soft focus (the crop seen at half to
    four fifths of its pixels and scaled back up), motion blur, JPEG blocks, or a finger or another
    card over one edge (never the centre, where the index is)."""
    if share <= 0 or rng.random() >= share:
        return c
    kind = rng.integers(4)
    if kind == 0:
        s = int(rng.integers(reader.CROP // 2, 4 * reader.CROP // 5 + 1))
        c = cv2.resize(cv2.resize(c, (s, s), interpolation=cv2.INTER_AREA), (reader.CROP, reader.CROP), interpolation=cv2.INTER_LINEAR)
    elif kind == 1:
        n = int(rng.integers(3, 6))
        k = np.zeros((n, n), np.float32)
        k[n // 2, :] = 1.0 / n
        k = cv2.warpAffine(k, cv2.getRotationMatrix2D(((n - 1) / 2, (n - 1) / 2), rng.uniform(0, 180), 1.0), (n, n))
        c = cv2.filter2D(c, -1, k / max(k.sum(), 1e-6), borderType=cv2.BORDER_REPLICATE)
    elif kind == 2:
        ok, buf = cv2.imencode(".jpg", c, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 70))])
        c = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else c
    else:
        c = c.copy()
        d = int(rng.integers(reader.CROP // 8, reader.CROP // 4 + 1))
        colour = rng.integers(0, 256, 3).tolist()
        side = rng.integers(4)
        if side == 0:
            c[:d, :] = colour
        elif side == 1:
            c[-d:, :] = colour
        elif side == 2:
            c[:, :d] = colour
        else:
            c[:, -d:] = colour
    return c


def low_light(rng, c):
    """A webcam in a dim room (the corpus's hand-held and multi-card groups): the crop darkened through a
    gamma curve, its contrast squeezed towards a dark level, a colour cast (a cheap sensor's green or a
    warm lamp), the sensor's noise turned up, and sometimes the isolated white and black specks a dataset's
    noise augmentation leaves (the corpus's Roboflow exports carry them)."""
    x = c.astype(np.float32) / 255.0
    x = x ** rng.uniform(1.2, 2.0)
    x = rng.uniform(0.02, 0.12) + x * rng.uniform(0.4, 0.85)
    x = x * rng.uniform(0.65, 1.25, 3)
    x = x * 255.0 + rng.normal(0, rng.uniform(2, 9), x.shape)
    if rng.random() < 0.4:
        specks = rng.random(x.shape[:2]) < rng.uniform(0.002, 0.02)
        x[specks] = rng.choice([0.0, 255.0], size=(int(specks.sum()), 1))
    return np.clip(x, 0, 255).astype(np.uint8)


def remap(rng, c):
    """The crop's grey levels painted in two random colours, light ink on a dark card as often as dark ink
    on a light one: decks differ in colour (the black-and-gold deck prints gold red suits and silver black
    ones on black cards), so the suit must be read from its shape; on every other crop the colour still
    helps. The two colours differ in brightness by at least a fifth of the range, as printed cards do."""
    g = cv2.cvtColor(c, cv2.COLOR_BGR2GRAY).astype(np.float32)[:, :, None] / 255.0
    while True:
        ink, card = rng.uniform(0, 255, 3), rng.uniform(0, 255, 3)
        if abs(ink.mean() - card.mean()) > 50:
            break
    return np.clip(ink + (card - ink) * g, 0, 255).astype(np.uint8)


def restyle(rng, c, low_light_share, remap_share):
    """Crop-level augmentations (train_reader.py --low-light, --remap), index and background crops alike so
    that neither becomes a sign of an index. A share of 0 draws nothing from the RNG: an earlier recipe's
    run stays the same."""
    if remap_share and rng.random() < remap_share:
        c = remap(rng, c)
    if low_light_share and rng.random() < low_light_share:
        c = low_light(rng, c)
    return c


# --crop-scale: the crop's side over the box's longer side, in the range model.json's reader.crop_scale
# is read in (vision/model_info.cpp).
crop_scale = feed.number_in(0.5, 4, "a number", "model.json reader.crop_scale")


def samples_from(img, boxes, rng, n_neg, hard=0.0, filt="linear", scale=CROP_SCALE):
    """(crop, rank, suit, is_index) from one image's pixel boxes, plus n_neg background crops. `hard`:
    the share of index crops made harder (degrade()), with the crop's size and centre jittered as far
    again as the detector's boxes stray. `filt`: how crops are shrunk (reader.py, crop). `scale`: the
    crop's side over the box's longer side (model.json reader.crop_scale)."""
    out = []
    H, W = img.shape[:2]
    for cx, cy, w, h, card in boxes:
        side = max(w, h) * scale * (rng.uniform(0.75, 1.35) if hard else rng.uniform(0.85, 1.2))
        jx, jy = rng.normal(0, (0.12 if hard else 0.08) * max(w, h), 2)
        c = degrade(rng, crop(img, cx + jx, cy + jy, side, rng.uniform(-180, 180), filt), hard)
        if card is None:
            out.append((c, -100, -100, 0))  # BACK, jokers: not a card index
        else:
            out.append((c, card[0], card[1], 1))
    for _ in range(n_neg):
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        if any(abs(cx - b[0]) < b[2] and abs(cy - b[1]) < b[3] for b in boxes):
            continue
        side = rng.uniform(15, 140)
        out.append((crop(img, cx, cy, side, rng.uniform(-180, 180), filt), -100, -100, 0))
    return out


def export_strip(model, out, rng):
    """reader_strip.onnx: the same weights in StripReader's form (reader.py), checked in OpenCV 4.6
    against the batch reader's torch outputs. Returns its model.json entry."""
    path = os.path.join(out, "reader_strip.onnx")
    strip = StripReader(model).eval()
    crops = torch.from_numpy(rng.uniform(0, 1, (STRIP_CROPS - 1, 3, reader.CROP, reader.CROP)).astype(np.float32))
    x = strip_of(crops)  # one place left empty, as the last strip of a frame has
    torch.onnx.export(strip, x, path, opset_version=11, input_names=["strip"], output_names=["reading"],
                      do_constant_folding=True)
    net = cv2.dnn.readNetFromONNX(path)
    net.setInput(x.numpy())
    got = net.forward()[0, :, 0, :STRIP_CROPS - 1].T
    with torch.no_grad():
        diff = float(np.abs(got - model(crops)[:, :, 0, 0].numpy()).max())
    sha = feed.accept_export(path, diff, "the batch reader in torch")
    return dict(onnx="reader_strip.onnx", sha256=sha, crops=STRIP_CROPS, pitch=reader.STRIP_PITCH,
                opencv_vs_batch_max_abs_diff=diff)


def left_out(real, names, where):
    """`real` (load_real's training photographs) without those `names` lists ("group/file.jpg"). A name that
    is not a training photograph is an error: a list that leaves out nothing it meant to would make a
    validation split the reader has seen."""
    have = {f"{g}/{os.path.basename(p)}" for g, p, _ in real}
    unknown = [n for n in names if n not in have]
    if unknown:
        raise SystemExit(f"--exclude-list {where}: {len(unknown)} of its images are not training photographs here "
                         f"({unknown[0]} ...)")
    drop = set(names)
    return [r for r in real if f"{r[0]}/{os.path.basename(r[1])}" not in drop]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--out", required=True, help="folder with model.json of the detector")
    ap.add_argument("--cache", default="/tmp/cardtable-vision-cache")
    ap.add_argument("--minutes", type=float, default=20)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=5e-3)
    ap.add_argument("--synth-scenes", type=int, default=400)
    ap.add_argument("--synth-share", type=feed.share, default=0.3, help="share of crops taken from synthetic scenes")
    ap.add_argument("--exclude-group", action="append", default=[])
    ap.add_argument("--exclude-list", help="leave these training photographs out (an eval --list file), e.g. "
                    "model/validation_images.txt, so that choose_point.py can place the reader on captures it never saw")
    ap.add_argument("--seed", type=int, default=10)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--hard", type=feed.share, default=0.0,
                    help="share of index crops made harder: soft focus, motion blur, JPEG, an edge covered (degrade())")
    ap.add_argument("--low-light", type=feed.share, default=0.0,
                    help="share of crops seen as a webcam in a dim room sees them: darker, flatter, a colour cast, "
                    "more noise, specks (low_light())")
    ap.add_argument("--remap", type=feed.share, default=0.0,
                    help="share of crops repainted in two random colours, light on dark as often as dark on light, "
                    "so that suits are read by shape (remap())")
    ap.add_argument("--crop-filter", choices=CROP_FILTERS, default="linear",
                    help="how crops are shrunk to the reader's size (reader.py, crop; model.json reader.crop_filter): "
                    "linear (one bilinear warp, the committed reader's) or area (every pixel averaged)")
    ap.add_argument("--fresh-scenes", type=feed.share, default=0.0,
                    help="per batch, the chance that one synthetic scene of the pool is replaced by a new one")
    ap.add_argument("--crop", type=int, default=None,
                    help="the reader's crop side in pixels, a multiple of 8 (model.json reader.crop; default: the "
                    "resumed run's, else 32). The weights read any side, so a 32-pixel reader can be resumed at 48")
    ap.add_argument("--crop-scale", type=crop_scale, default=None,
                    help="the crop's side over the index box's longer side (model.json reader.crop_scale; default: "
                    f"the resumed run's, else {CROP_SCALE}). More than 1.3 shows the reader some of the face beside "
                    "the index: a number card's nearest pip, larger than the index's own suit")
    feed.add_run_options(ap, log_every=20, state="reader.npz")
    args = ap.parse_args()
    # The crop's context, like its side: given, else the resumed run's, else the reader's default.
    args.crop_scale = args.crop_scale or (feed.read_record(args.resume) or {}).get("args", {}).get("crop_scale") or CROP_SCALE
    # The crop side the weights learn from: given, else the resumed run's (its export needs no option), else 32.
    args.crop = args.crop or (feed.read_record(args.resume) or {}).get("args", {}).get("crop") or reader.CROP
    try:
        reader.set_crop(args.crop)
    except ValueError as e:
        raise SystemExit(f"--crop: {e}")
    decks = synth.deck_list(args.decks)  # a deck that does not exist is refused before anything loads
    feed.single_threaded_opencv(args.workers)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    torch.set_num_threads(args.threads)

    real, held = load_real(args.corpus, set(args.exclude_group))
    if args.exclude_list:
        real = left_out(real, read_list(args.exclude_list), args.exclude_list)
    images = [cv2.imread(p, cv2.IMREAD_COLOR) for _, p, _ in real]
    pix = [[(cx * im.shape[1], cy * im.shape[0], w * im.shape[1], h * im.shape[0], c) for cx, cy, w, h, c in b]
           for im, (_, _, b) in zip(images, real)]
    faces = synth.render_decks(args.cache, decks)
    budget = 60 * (0.2 if args.smoke else args.minutes)
    n_scenes = 0 if budget <= 0 else 3 if args.smoke else args.synth_scenes
    scenes = [synth.scene(rng, faces, 256, args.recolour_share) for _ in range(n_scenes)]
    print(f"{len(images)} photos, {len(scenes)} synthetic scenes", flush=True)

    def make(r):
        if args.fresh_scenes and r.random() < args.fresh_scenes:
            scenes[int(r.integers(len(scenes)))] = synth.scene(r, faces, 256, args.recolour_share)
        batch = []
        while len(batch) < args.batch:
            if r.random() < args.synth_share:
                img, b = scenes[int(r.integers(len(scenes)))]
            else:
                i = int(r.integers(len(images)))
                img, b = images[i], pix[i]
            batch += samples_from(img, b, r, 1, args.hard, args.crop_filter, args.crop_scale)
        batch = batch[:args.batch]
        x = torch.from_numpy(np.stack([photometric(r, restyle(r, c, args.low_light, args.remap)) for c, _, _, _ in batch])
                             .astype(np.float32).transpose(0, 3, 1, 2) / 255.0)
        return (x, torch.tensor([k for _, k, _, _ in batch]), torch.tensor([s for _, _, s, _ in batch]),
                torch.tensor([float(k) for _, _, _, k in batch]))

    dev = feed.device(args.device)
    model = IndexReader()
    resumed = feed.read_record(args.resume)
    if args.resume:
        feed.load_state(model, args.resume)
    model.to(dev)
    state = args.state or os.path.join(args.cache, "reader.npz")
    os.makedirs(os.path.dirname(os.path.abspath(state)), exist_ok=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    stream = feed.batches(make, rng, args.seed, args.workers) if budget > 0 else None
    start = time.time()
    step = 0
    last = {}

    def record():
        return dict(args=vars(args), steps=step, minutes=round((time.time() - start) / 60, 1), last=last,
                    device=torch.cuda.get_device_name(dev) if dev.type == "cuda" else "cpu")

    keeper = feed.Keeper(state, record)

    while budget > 0 and time.time() - start < budget and not (args.smoke and step >= 3):
        frac = (time.time() - start) / budget
        for g in opt.param_groups:
            g["lr"] = args.lr * min(1.0, (step + 1) / 30) * 0.5 * (1 + np.cos(np.pi * frac))
        x, rank, suit, isidx = (t.to(dev, non_blocking=True) for t in next(stream))
        model.train()
        out = model(x)[:, :, 0, 0]
        lr_ = F.cross_entropy(out[:, 0:13], rank, ignore_index=-100)
        ls = F.cross_entropy(out[:, 13:17], suit, ignore_index=-100)
        li = F.binary_cross_entropy_with_logits(out[:, 17], isidx)
        loss = lr_ + ls + li
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % args.log_every == 0 or args.smoke:
            with torch.no_grad():
                m = rank >= 0
                acc = ((out[m, 0:13].argmax(1) == rank[m]) & (out[m, 13:17].argmax(1) == suit[m])).float().mean().item()
            last = dict(step=step, minutes=round((time.time() - start) / 60, 2), rank=lr_.item(), suit=ls.item(),
                        is_index=li.item(), batch_card_accuracy=acc)
            print(json.dumps(last), flush=True)
        keeper.tick(model)
    training = keeper.finish(model, budget > 0, resumed)
    if args.no_export:
        print("wrote", state, flush=True)
        return
    model.eval()
    path = os.path.join(args.out, "reader.onnx")
    torch.onnx.export(model, torch.zeros(1, 3, reader.CROP, reader.CROP), path, opset_version=11, input_names=["crop"],
                      output_names=["reading"], do_constant_folding=True)
    net = cv2.dnn.readNetFromONNX(path)
    x = rng.uniform(0, 1, (4, 3, reader.CROP, reader.CROP)).astype(np.float32)
    net.setInput(x)
    with torch.no_grad():
        diff = float(np.abs(net.forward() - model(torch.from_numpy(x)).numpy()).max())
    sha = feed.accept_export(path, diff, "torch")
    strip = export_strip(model, args.out, rng)
    meta_path = os.path.join(args.out, "model.json")
    meta = json.load(open(meta_path))
    # The crops the weights learnt from: a record written before --crop-filter existed trained on linear ones.
    crop_filter = training.get("args", {}).get("crop_filter", "linear")
    meta["reader"] = dict(onnx="reader.onnx", sha256=sha, crop=reader.CROP, crop_scale=training.get("args", {}).get("crop_scale", CROP_SCALE), crop_filter=crop_filter,
                          rank=0, suit=13, is_index=17, emb=18, emb_dim=EMB, channels=OUT, strip=strip,
                          training=dict(training, opencv_vs_torch_max_abs_diff=diff))
    # model.json names every deck either network learnt from (the detector's export wrote its own).
    decks = list(meta.get("synthetic_decks", synth.DECKS))
    decks += [d for d in trained_decks(training) if d not in decks]
    meta["synthetic_decks"] = decks
    meta["attribution"] = attribution(decks)
    with open(meta_path, "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    print("wrote", path, sha, flush=True)


if __name__ == "__main__":
    main()
