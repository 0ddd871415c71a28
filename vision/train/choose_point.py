#!/usr/bin/env python3
"""Choose a reader's operating point on the training images and write it into model.json
(reader.operating_point), where the recogniser reads it: the floor, margin, pair floor and views belong
to the weights they were chosen for, so a new reader carries its own.

The rule (vision/README.md, "Operating point"), precision first: walk the floors from the lowest, and at
each the pair floors from the lowest; take the first point at which the training images' false cards hold
at most --real-errors real errors. Given several numbers of views (--views 2,4), the rule places the
reader at each, and the point that reads the most of the training images' cards is taken (at equal
recall, the fewer views: they cost less). A false card is not a real error when a person has looked at the
photograph and found the card there, unlabelled: those are listed in --unlabelled ("group/file.jpg CARD",
one a line, # comments), so the choice is the same each time it is made. The held-out captures are never
read here.

  python3 vision/train/choose_point.py --eval build/tools/cardtable-vision/cardtable-vision \\
      --dataset .../roboflow_card_detection_v12 --model vision/model/model.json [--write]
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from name_lists import content_lines, read_list  # noqa: E402
MODEL_DIR = os.path.join(HERE, "..", "model")


def read_unlabelled(path):
    cards = set()
    for n, line in content_lines(path):
        parts = line.split()
        if len(parts) != 2:
            sys.exit(f"{path}:{n}: want 'group/file.jpg CARD', got {line!r}")
        cards.add((parts[0], parts[1]))
    return cards


def views_list(text):
    """An argparse type for --views: one number of views or several, comma-separated."""
    try:
        views = sorted({int(x) for x in text.split(",")})
    except ValueError:
        raise argparse.ArgumentTypeError(f"want numbers of views such as 2 or 2,4, not {text!r}")
    if any(v < 1 or v > 8 for v in views):
        raise argparse.ArgumentTypeError(f"want views from 1 to 8, not {text!r}")
    return views


def evaluate(args, views, floor, pair_floor):
    cmd = [args.eval, "eval", "--dataset", args.dataset, "--list", args.list, "--model", args.model, "--json",
           "--every-view", "--views", str(views), "--floor", str(floor), "--margin", str(args.margin),
           "--pair-floor", str(pair_floor)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def place(args, views, floors, pairs, unlabelled, grid):
    """The rule at one number of views: the lowest floor, then pair floor, with at most --real-errors real
    false cards; None where the grid has no such point. Every point read goes into `grid`."""
    for floor in floors:
        chosen = None
        for pair_floor in pairs:
            e = evaluate(args, views, floor, pair_floor)
            falses = [(f["image"], f["read"], f["label"]) for f in e["false_card_images"]]
            real = [f for f in falses if (f[0], f[1]) not in unlabelled]
            row = dict(views=views, floor=floor, pair_floor=pair_floor, precision=round(e["precision"], 4),
                       recall=round(e["recall"], 4), false_cards=len(falses), real_errors=len(real))
            grid.append(row)
            print(json.dumps(row), flush=True)
            for image, read, label in real:
                print(f"  real error: {image}: {label} -> {read}", flush=True)
            if chosen is None and len(real) <= args.real_errors:
                chosen = dict(row, real=[dict(image=i, read=r, label=l) for i, r, l in real])
        if chosen:
            return chosen  # the lowest floor with such a point: the higher ones only refuse more
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--eval", required=True, help="the cardtable-vision binary")
    ap.add_argument("--dataset", required=True, help="the corpus's roboflow_card_detection_v12 folder")
    ap.add_argument("--model", required=True, help="model.json of the reader to place")
    ap.add_argument("--list", default=os.path.join(MODEL_DIR, "train_images.txt"), help="the training images (never the held-out ones)")
    ap.add_argument("--unlabelled", default=os.path.join(MODEL_DIR, "unlabelled_cards.txt"),
                    help="cards verified in the photographs but missing from their labels")
    # From 0.8: on photographs a reader has not learnt (the validation split) the rule can stop below 0.95.
    ap.add_argument("--floors", default="0.8,0.9,0.95,0.97,0.98,0.985,0.99,0.992,0.995,0.997,0.998,0.999")
    ap.add_argument("--pair-floors", default="0.7,0.8,0.9")
    ap.add_argument("--margin", type=float, default=0.80)
    ap.add_argument("--views", type=views_list, default=[2],
                    help="the number of views to read each index in, or several (2,4): each placed by the rule, the "
                    "one that reads most of the training images' cards taken")
    ap.add_argument("--real-errors", type=int, default=1, help="the most real false cards allowed on the training images")
    ap.add_argument("--write", action="store_true", help="write the chosen point into --model")
    args = ap.parse_args()
    held = read_list(os.path.join(MODEL_DIR, "held_out_images.txt"))
    shared = sorted(set(read_list(args.list)) & set(held))
    if shared:
        sys.exit(f"the operating point is chosen on the training images, never the held-out captures: {args.list} "
                 f"holds {len(shared)} of model/held_out_images.txt ({shared[0]} ...)")
    unlabelled = read_unlabelled(args.unlabelled)
    floors = sorted(float(x) for x in args.floors.split(","))
    pairs = sorted(float(x) for x in args.pair_floors.split(","))
    grid, compared = [], []
    for views in args.views:
        chosen = place(args, views, floors, pairs, unlabelled, grid)
        if chosen:
            compared.append(chosen)
    if not compared:
        sys.exit(f"no point of the grid leaves at most {args.real_errors} real errors: widen --floors")
    # The most training recall; at equal recall the fewer views (args.views is sorted, max keeps the first).
    chosen = max(compared, key=lambda c: c["recall"])
    point = dict(floor=chosen["floor"], margin=args.margin, pair_floor=chosen["pair_floor"], views=chosen["views"],
                 chosen_on=dict(images=os.path.basename(args.list), rule=f"lowest floor, then pair floor, with at most "
                                f"{args.real_errors} real false card(s) on the training images"
                                + (", then the views that read the most of their cards" if len(args.views) > 1 else ""),
                                precision=chosen["precision"], recall=chosen["recall"], false_cards=chosen["false_cards"],
                                real_errors=chosen["real"], grid=grid))
    # At the grid's lowest floor the rule has not found where it stops: a lower floor may hold as well.
    point["chosen_on"]["at_grid_edge"] = chosen["floor"] == floors[0]
    if point["chosen_on"]["at_grid_edge"]:
        print(f"note: chosen at the grid's lowest floor, {floors[0]}: a lower one may leave as few real errors; "
              "widen --floors downward to find where the rule stops", flush=True)
    if len(args.views) > 1:
        point["chosen_on"]["views_compared"] = [{k: c[k] for k in ("views", "floor", "pair_floor", "precision", "recall")}
                                                for c in compared]
    print("chosen:", json.dumps({k: point[k] for k in ("floor", "margin", "pair_floor", "views")}), flush=True)
    if args.write:
        with open(args.model) as f:
            meta = json.load(f)
        meta["reader"]["operating_point"] = point
        with open(args.model, "w") as f:
            json.dump(meta, f, indent=1)
            f.write("\n")
        print("wrote", args.model, flush=True)


if __name__ == "__main__":
    main()
