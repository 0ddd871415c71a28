#!/bin/sh
# The accelerator workflow, on the CPU: train with batches made in a worker process and write only the
# weights and the run's record (--no-export), then export them in a second run (--resume, --minutes 0),
# as Debian's torch does here for weights trained under another torch. model.json must name the
# training run (its workers, steps and record), not the export run. Each run has a time limit, so a
# worker that hangs (as one did on the accelerator machine, OpenCV's thread pool forked into it) fails
# the test instead of stalling CI. The reader trains on one more deck than the detector and with hard
# crops (--decks, --hard): model.json must name every deck either network learnt from, and a deck that
# does not exist must be refused by name. It trains with a wider context (--crop-scale): the export run,
# given no such option, must write the crop scale the weights learnt at into model.json, where the
# recogniser reads it, and a scale outside 0.5..4 must be refused by name.
# usage: training_split_smoke.sh PYTHON SOURCE_DIR CORPUS WORK
set -eu
py="$1"; src="$2"; corpus="$3/images/roboflow_card_detection_v12"; work="$4"
rm -rf "$work"; mkdir -p "$work"
common="--corpus $corpus --cache $work/cache --threads 1"
timeout 300 "$py" "$src/vision/train/train.py" $common --out "$work/out" --smoke --workers 1 --no-export --state "$work/w/detector.npz"
timeout 300 "$py" "$src/vision/train/train_reader.py" $common --out "$work/out" --smoke --synth-scenes 3 --workers 1 --no-export --state "$work/w/reader.npz" \
  --decks svg-standard,svg-nicu-ornamental --hard 0.5 --crop-scale 1.6
if "$py" "$src/vision/train/train_reader.py" $common --out "$work/out" --smoke --crop-scale 13 2>"$work/err"; then
  echo "--crop-scale 13 was taken"; exit 1
fi
grep -q -- "--crop-scale: want a number in 0.5..4" "$work/err" || { echo "the refusal does not name the option:"; cat "$work/err"; exit 1; }
if "$py" "$src/vision/train/train_reader.py" $common --out "$work/out" --smoke --decks svg-nonesuch 2>"$work/err"; then
  echo "--decks svg-nonesuch was taken"; exit 1
fi
grep -q "svg-nonesuch" "$work/err" || { echo "the refusal does not name the deck:"; cat "$work/err"; exit 1; }
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
strip = m["reader"]["strip"]  # the same reader in strip form, checked in OpenCV against the batch form
assert strip["onnx"] == "reader_strip.onnx" and strip["opencv_vs_batch_max_abs_diff"] < 1e-3, strip
assert strip["pitch"] > m["reader"]["crop"], strip
assert m["reader"]["crop_scale"] == 1.6, ("model.json does not name the context the reader learnt at", m["reader"]["crop_scale"])
assert m["reader"]["training"]["args"]["decks"] == "svg-standard,svg-nicu-ornamental", m["reader"]["training"]["args"]
for deck in ("svg-standard", "svg-dondorf", "svg-nicu-ornamental"):  # the detector's four, the reader's extra one
    assert deck in m["synthetic_decks"] and deck in m["attribution"], (deck, m["synthetic_decks"], m["attribution"])
print("split training: weights trained in one run, exported and checked in OpenCV in another")
PY
