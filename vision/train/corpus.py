"""The YOLO-layout photographs: groups, labels (boxes and polygons), and the split by capture.

Same rules as the C++ reader (vision/yolo_dataset.cpp): class names from data.yaml in the folder or a
parent; a row is `class cx cy w h` or a polygon `class x1 y1 x2 y2 ...` (its bounding box); BACK and
jokers are not cards (the network learns them as background).
"""
import os
import re
import uuid

from model import RANKS, SUITS


def read_names(root):
    d = os.path.abspath(root)
    while True:
        p = os.path.join(d, "data.yaml")
        if os.path.exists(p):
            m = re.search(r"names:\s*\[(.*?)\]", open(p).read(), re.S)
            return [n.strip().strip("'\"") for n in m.group(1).split(",")]
        if os.path.dirname(d) == d:
            raise SystemExit(f"no data.yaml in {root} or a parent")
        d = os.path.dirname(d)


def card_of(name):
    """'10H' -> (rank index, suit index); BACK / jokers -> None."""
    if len(name) < 2 or name[-1] not in SUITS or name[:-1] not in RANKS:
        return None
    return RANKS.index(name[:-1]), SUITS.index(name[-1])


def read_labels(path, names):
    boxes = []  # (cx, cy, w, h normalised, card or None)
    for line in open(path):
        f = line.split()
        if not f:
            continue
        cls = int(f[0])
        v = [float(x) for x in f[1:]]
        if len(v) == 4:
            cx, cy, w, h = v
        else:  # polygon: its bounding box
            xs, ys = v[0::2], v[1::2]
            cx, cy, w, h = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, max(xs) - min(xs), max(ys) - min(ys)
        boxes.append((cx, cy, w, h, card_of(names[cls])))
    return boxes


def groups(root):
    """[(group name, group dir)] -- root itself when it holds images/, else its subfolders that do."""
    if os.path.isdir(os.path.join(root, "images")):
        return [(os.path.basename(os.path.abspath(root)), root)]
    return [(g, os.path.join(root, g)) for g in sorted(os.listdir(root)) if os.path.isdir(os.path.join(root, g, "images"))]


def images(group_dir):
    """The photographs of a group folder, by name."""
    return sorted(f for f in os.listdir(os.path.join(group_dir, "images")) if f.lower().endswith((".jpg", ".jpeg", ".png")))


def capture_key(fname):
    """Order of capture: the camera's timestamp or uuid1 time in the original file name."""
    base = fname.split(".rf.")[0]
    m = re.search(r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})", base)
    if m:
        return (uuid.UUID(m.group(1)).time, base)
    return (0, base)


HELD_OUT_CHUNKS = (3, 8)  # of 10 contiguous runs of captures per group: 20 % held out, spread over the session


def split(files):
    """Fixed split by capture: sort by capture time, cut into 10 contiguous runs, hold out runs 3 and 8.
    Neighbouring frames are near-duplicates, so whole runs go to one side."""
    files = sorted(files, key=capture_key)
    n = len(files)
    train, test = [], []
    for i, f in enumerate(files):
        (test if (i * 10 // n) in HELD_OUT_CHUNKS else train).append(f)
    return train, test


VALIDATION_CHUNK = 5  # of 10 contiguous runs of a group's training captures


def validation(train_files):
    """The training captures split again the same way, by capture: run 5 of 10 per group (about 8 % of
    the photographs) is the validation split, for a reader trained without it (train_reader.py
    --exclude-list) to have its operating point chosen on captures it never saw (choose_point.py --list).
    The readers committed so far trained on every training capture, so for them it is no validation."""
    files = sorted(train_files, key=capture_key)
    n = len(files)
    return [f for i, f in enumerate(files) if i * 10 // n == VALIDATION_CHUNK]


def validation_list(root):
    """'group/file' of every validation capture under the corpus folder `root`, in group order."""
    out = []
    for g, d in groups(root):
        out += [f"{g}/{f}" for f in validation(split(images(d))[0])]
    return out


if __name__ == "__main__":
    # python3 vision/train/corpus.py validation CORPUS > vision/model/validation_images.txt
    import sys
    if len(sys.argv) != 3 or sys.argv[1] != "validation":
        sys.exit("usage: corpus.py validation CORPUS   (prints the validation split of the training captures)")
    print("\n".join(validation_list(sys.argv[2])))
