"""What both training scripts share for a machine with an accelerator and many cores.

- `batches`: training batches made by a function of an RNG, in-process (`--workers 0`, the 2-core
  machine) or in worker processes (an accelerator machine: the networks are tiny, so making the
  augmented batches on the CPU, not the GPU's arithmetic, sets the pace). Each worker has its own RNG
  seeded from (seed, worker), so a run is fixed by its seed and its number of workers.
- `save_state` / `load_state`: the weights as a plain NumPy archive, so a state trained under another
  torch (the accelerator machine's) loads in Debian's torch 1.13, which exports the ONNX file that
  OpenCV 4.6 is checked against.
- `record`: what a run did (arguments, steps, minutes, device, last losses), beside its weights, so the
  export that may run elsewhere writes the training's facts into model.json, not its own.
"""
import argparse
import hashlib
import json
import os
import time

import cv2
import numpy as np
import torch


def number_in(lo, hi, what="a number", note=""):
    """An argparse type for an option that is a number in lo..hi, refused by name outside it (and NaN,
    which no range holds); `note` says, after the refusal, what the range is for or how to write it."""
    def parse(text):
        try:
            v = float(text)
        except ValueError:
            v = float("nan")  # not a number: refused as NaN is, below
        if not lo <= v <= hi:
            tail = f" ({note})" if note else ""
            raise argparse.ArgumentTypeError(f"want {what} in {lo:g}..{hi:g}, not {text!r}{tail}")
        return v
    return parse


# The options that are a share of the crops or images (0..1): `--remap 25` meant as a quarter would
# repaint every crop without a word.
share = number_in(0, 1, "a share", "a quarter is 0.25")


def add_run_options(ap, log_every, state):
    """The options both scripts take for where and how a run trains, and where its weights go."""
    ap.add_argument("--decks", default="standard",
                    help="synthetic card art: 'standard' (the four decks the committed models used), 'more' (five "
                    "more fonts, vision/train/synth.py MORE_DECKS), 'all' (both), or a comma-separated list of "
                    "Debian deck names such as svg-standard")
    ap.add_argument("--recolour-share", type=share, default=0.0,
                    help="share of synthetic faces inverted or tinted (decks with light ink on dark cards)")
    ap.add_argument("--device", default="cpu", help="torch device: cpu, or cuda on a machine with an accelerator")
    ap.add_argument("--workers", type=int, default=0, help="processes making batches (0: in this one)")
    ap.add_argument("--log-every", type=int, default=log_every, help="print the losses every N steps")
    ap.add_argument("--state", help=f"where the weights and the run's record go (default CACHE/{state})")
    ap.add_argument("--no-export", action="store_true", help="train and write --state only (export elsewhere)")
    ap.add_argument("--resume", help="start from these weights (.npz or a torch state dict); with --minutes 0 it "
                    "only exports, and the record beside them is the training that model.json names")


class _Stream(torch.utils.data.IterableDataset):
    def __init__(self, make, seed):
        super().__init__()
        self.make, self.seed = make, seed

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        worker = info.id if info else 0
        torch.set_num_threads(1)
        rng = np.random.default_rng([self.seed, worker + 1])
        while True:
            yield self.make(rng)


def single_threaded_opencv(workers):
    """Call first, before any OpenCV work: with worker processes, OpenCV must not start its own thread
    pool in the parent. On the accelerator machine (pip's OpenCV 5.0) a smoke run with workers hung for
    10 minutes while the workers set their own thread count after the fork; with OpenCV single-threaded
    from the start in the parent, the same runs went through. The likely cause: a pool forked into a
    worker has no threads behind it, and reconfiguring it waits for them."""
    if workers > 0:
        cv2.setNumThreads(1)


def batches(make, rng, seed, workers):
    """An endless iterator of make(rng)'s batches."""
    if workers <= 0:
        while True:
            yield make(rng)
    loader = torch.utils.data.DataLoader(_Stream(make, seed), batch_size=None, num_workers=workers,
                                         prefetch_factor=4, persistent_workers=True)
    yield from loader


def save_state(model, path):
    tmp = path + ".tmp.npz"
    np.savez(tmp, **{k: v.detach().cpu().numpy() for k, v in model.state_dict().items()})
    os.replace(tmp, path)


def load_state(model, path):
    if path.endswith(".npz"):
        with np.load(path) as z:
            model.load_state_dict({k: torch.from_numpy(z[k].copy()) for k in z.files})
    else:
        model.load_state_dict(torch.load(path, map_location="cpu"))


def record_path(state_path):
    return os.path.splitext(state_path)[0] + ".json"


def write_record(state_path, rec):
    tmp = record_path(state_path) + ".tmp"
    with open(tmp, "w") as f:
        json.dump(rec, f, indent=1)
        f.write("\n")
    os.replace(tmp, record_path(state_path))


def read_record(state_path):
    if not state_path:
        return None
    p = record_path(state_path)
    return json.load(open(p)) if os.path.exists(p) else None


class Keeper:
    """Writes the weights and the run's record every minute (a run cut short keeps its last minute) and
    at the end. `record` is a function: the record as it stands."""

    def __init__(self, state, record):
        self.state, self.record, self.saved = state, record, time.time()

    def tick(self, model):
        if time.time() - self.saved > 60:
            self.write(model)

    def write(self, model):
        save_state(model, self.state)
        write_record(self.state, self.record())
        self.saved = time.time()

    def finish(self, model, trained, resumed):
        """The training that model.json names: this run's, or when it only exports, the resumed one's."""
        model.cpu()
        if trained:
            self.write(model)
        return self.record() if trained or not resumed else resumed


def accept_export(path, diff, what):
    """An exported ONNX file is kept only if OpenCV 4.6 gave the reference's outputs (`diff`, the largest
    difference, `what` says against what); then its SHA-256 goes beside it (NAME.sha256), which
    model.json repeats and the C++ side checks on load. Returns the SHA-256."""
    print(f"{os.path.basename(path)}: cv::dnn vs {what} max |diff| = {diff:.2e}", flush=True)
    if diff > 1e-3:
        raise SystemExit(f"{path}: OpenCV's output differs from {what}")
    sha = hashlib.sha256(open(path, "rb").read()).hexdigest()
    with open(path + ".sha256", "w") as f:
        f.write(f"{sha}  {os.path.basename(path)}\n")
    return sha


def device(name):
    d = torch.device(name)
    if d.type == "cuda":
        if not torch.cuda.is_available():
            raise SystemExit(f"--device {name}: no CUDA device here")
        torch.backends.cudnn.benchmark = True
    return d
