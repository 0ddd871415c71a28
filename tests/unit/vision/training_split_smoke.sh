#!/bin/sh
# The accelerator workflow, on the CPU: train with batches made in a worker process and write only the
# weights and the run's record (--no-export), then export them in a second run (--resume, --minutes 0),
# as Debian's torch does here for weights trained under another torch. model.json must name the
# training run (its workers, steps and record), not the export run. Each run has a time limit, so a
# worker that hangs (as one did on the accelerator machine, OpenCV's thread pool forked into it) fails
# the test instead of stalling CI.
# usage: training_split_smoke.sh PYTHON SOURCE_DIR CORPUS WORK
set -eu
py="$1"; src="$2"; corpus="$3/images/roboflow_card_detection_v12"; work="$4"
rm -rf "$work"; mkdir -p "$work"
common="--corpus $corpus --cache $work/cache --threads 1"
timeout 300 "$py" "$src/vision/train/train.py" $common --out "$work/out" --smoke --workers 1 --no-export --state "$work/w/detector.npz"
timeout 300 "$py" "$src/vision/train/train_reader.py" $common --out "$work/out" --smoke --synth-scenes 3 --workers 1 --no-export --state "$work/w/reader.npz"
test ! -e "$work/out/cards.onnx"  # --no-export exports nothing
timeout 300 "$py" "$src/vision/train/train.py" $common --out "$work/out" --minutes 0 --resume "$work/w/detector.npz"
timeout 300 "$py" "$src/vision/train/train_reader.py" $common --out "$work/out" --minutes 0 --resume "$work/w/reader.npz"
"$py" - "$work/out/model.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for name, t in (("detector", m["training"]), ("reader", m["reader"]["training"])):
    assert t["args"]["workers"] == 1 and t["args"]["no_export"], (name, "model.json names the export run", t["args"])
    assert t["steps"] >= 3, (name, t["steps"])
    assert t["opencv_vs_torch_max_abs_diff"] < 1e-3, (name, t)
print("split training: weights trained in one run, exported and checked in OpenCV in another")
PY
