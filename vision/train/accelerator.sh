#!/usr/bin/env bash
# The reader's training on a machine with an accelerator, in one call of a session's device tool, whose
# machines start bare, see nothing outside the working tree, and keep nothing (README.md beside the tool).
# The corpus's photographs and the card faces rendered here travel in .gpu/ (git-ignored, never
# committed); the weights and the run's record come back in $OUT; the ONNX export is made here, with
# Debian's torch, and checked in OpenCV 4.6 (vision/README.md, "The model: training and data").
#
#   here:   vision/train/accelerator.sh pack CORPUS_GROUPS FACES_CACHE
#           (CORPUS_GROUPS: ../shared/data/corpus/images/roboflow_card_detection_v12; FACES_CACHE: a
#           --cache folder of train.py or train_reader.py, holding the decks' rendered faces)
#   there:  vision/train/accelerator.sh train MINUTES [more train_reader.py options]     (carry: .gpu)
#   here:   python3 vision/train/train_reader.py --corpus CORPUS_GROUPS --out vision/model --minutes 0 \
#               --resume FILES_AT/reader.npz
#
# The recipe is the committed reader's (43,707 steps of 256 crops in 13 minutes on an H100, 4 workers);
# options after MINUTES are added to it (--crop-filter area, --hard 0.3, --decks all, ...).
set -euo pipefail
cd "$(dirname "$0")/../.."
case "${1:-}" in
pack)
  [ $# -eq 3 ] || { echo "usage: $0 pack CORPUS_GROUPS FACES_CACHE" >&2; exit 2; }
  [ -d "$2" ] || { echo "$0: no corpus at $2" >&2; exit 1; }
  ls "$3"/*.png >/dev/null 2>&1 || { echo "$0: no rendered faces in $3" >&2; exit 1; }
  grep -qx '/.gpu/' .git/info/exclude 2>/dev/null || echo '/.gpu/' >> .git/info/exclude
  rm -rf .gpu && mkdir -p .gpu/faces
  cp -r "$2" .gpu/corpus
  # data.yaml (the class names) may sit in a parent of the groups' folder
  [ -f .gpu/corpus/data.yaml ] || [ ! -f "$2/../data.yaml" ] || cp "$2/../data.yaml" .gpu/corpus/
  # the rendered PNGs alone: synth.render_decks reads them without the decks' SVGs (24 MB for all nine
  # decks), and the device call carries 64 MiB at most
  cp "$3"/*.png .gpu/faces/
  du -sh .gpu
  echo "name .gpu in the device call's carry"
  ;;
train)
  [ $# -ge 2 ] || { echo "usage: $0 train MINUTES [train_reader.py options]" >&2; exit 2; }
  minutes=$2
  shift 2
  [ -d .gpu/corpus ] || { echo "$0: no .gpu/corpus: run '$0 pack' here and carry .gpu" >&2; exit 1; }
  out=${OUT:-/tmp/reader-run}
  mkdir -p "$out"
  workers=$(($(nproc) - 2))
  [ "$workers" -ge 1 ] || workers=1
  PYTHONUNBUFFERED=1 "${PYTHON:-python3}" vision/train/train_reader.py --corpus .gpu/corpus --cache .gpu/faces --out "$out" \
    --device "${DEVICE:-cuda}" --workers "$workers" --batch 256 --synth-scenes 400 --fresh-scenes 0.1 --recolour-share 0.25 \
    --seed 10 --log-every 1000 --no-export --state "$out/reader.npz" --minutes "$minutes" "$@" \
    2>&1 | tee "$out/reader_train.log"
  ;;
*)
  echo "usage: $0 pack CORPUS_GROUPS FACES_CACHE | train MINUTES [train_reader.py options]" >&2
  exit 2
  ;;
esac
