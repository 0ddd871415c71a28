#!/bin/sh
# choose_point.py (vision/train/), on a few training photographs and a small grid: it writes the point it
# chose into model.json, where `cardtable-vision eval` reads it; it refuses a list that holds any held-out
# capture, whatever the list is called (a point chosen on them would make the held-out figures a fit);
# an unlabelled-cards file it cannot read is an error that names the file and line; and given two numbers
# of views, it places the reader at each and takes the one that reads more of the training images' cards.
# usage: choose_point_smoke.sh PYTHON SOURCE_DIR CARDTABLE_VISION CORPUS WORK
set -eu
py="$1"; src="$2"; vision="$3"; corpus="$4/images/roboflow_card_detection_v12"; work="$5"
rm -rf "$work"; mkdir -p "$work"
cp -r "$src/vision/model" "$work/model"
# The photographs model/unlabelled_cards.txt names (their false cards are not the reader's errors) and three more.
grep -v '^#' "$src/vision/model/unlabelled_cards.txt" | cut -d' ' -f1 > "$work/few.txt"
head -n 3 "$src/vision/model/train_images.txt" >> "$work/few.txt"
choose() { "$py" "$src/vision/train/choose_point.py" --eval "$vision" --dataset "$corpus" --model "$work/model/model.json" "$@"; }

choose --list "$work/few.txt" --floors 0.99,0.995 --pair-floors 0.8 --write > "$work/chosen.log"
"$py" - "$work/model/model.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["reader"]["operating_point"]
assert p["floor"] in (0.99, 0.995) and p["pair_floor"] == 0.8 and p["views"] == 2, p
c = p["chosen_on"]
assert c["images"] == "few.txt" and len(c["grid"]) in (1, 2), c
assert len(c["real_errors"]) <= 1, c["real_errors"]
# Chosen at the grid's lowest floor, the rule has not found where it stops, and says so.
assert c["at_grid_edge"] == (p["floor"] == 0.99), c
PY
if grep -q '"floor": 0.99,' "$work/model/model.json"; then
  grep -q "chosen at the grid's lowest floor, 0.99: a lower one may" "$work/chosen.log" \
    || { echo "a point at the grid's edge is not said to be one:"; cat "$work/chosen.log"; exit 1; }
fi
floor=$("$py" -c "import json,sys; print(json.load(open(sys.argv[1]))['reader']['operating_point']['floor'])" "$work/model/model.json")
"$vision" eval --dataset "$corpus" --list "$work/few.txt" --model "$work/model/model.json" | grep -q "floor $floor, margin 0.8, pair floor 0.8" \
  || { echo "eval does not read at the point written ($floor / 0.8)"; exit 1; }

cp -r "$src/vision/model" "$work/views"
"$py" "$src/vision/train/choose_point.py" --eval "$vision" --dataset "$corpus" --model "$work/views/model.json" \
  --list "$work/few.txt" --floors 0.99,0.995 --pair-floors 0.8 --views 4,2 --write > "$work/views.log"
"$py" - "$work/views/model.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["reader"]["operating_point"]
c = p["chosen_on"]
compared = c["views_compared"]
assert sorted(v["views"] for v in compared) == [2, 4], compared
best = max(compared, key=lambda v: v["recall"])  # 2 comes first: at equal recall, the fewer views
assert (p["views"], p["floor"], p["pair_floor"]) == (best["views"], best["floor"], best["pair_floor"]), (p, compared)
assert {r["views"] for r in c["grid"]} == {2, 4}, c["grid"]
PY
if choose --list "$work/few.txt" --views 0 2> "$work/err"; then echo "--views 0 was accepted"; exit 1; fi
grep -q "argument --views: want views from 1 to 8" "$work/err" || { cat "$work/err"; exit 1; }

cp "$work/few.txt" "$work/renamed.txt"
sed -n 5p "$src/vision/model/held_out_images.txt" >> "$work/renamed.txt"
if choose --list "$work/renamed.txt" 2> "$work/err"; then echo "a list with a held-out capture was accepted"; exit 1; fi
grep -q "never the held-out captures: .*renamed.txt holds 1 of model/held_out_images.txt" "$work/err" || { cat "$work/err"; exit 1; }

printf 'phone_single_card_wood/x.jpg\n' > "$work/bad_unlabelled.txt"
if choose --list "$work/few.txt" --unlabelled "$work/bad_unlabelled.txt" 2> "$work/err"; then echo "a malformed unlabelled file was accepted"; exit 1; fi
grep -q "bad_unlabelled.txt:1: want 'group/file.jpg CARD'" "$work/err" || { cat "$work/err"; exit 1; }
echo "choose_point: $(tail -n 1 "$work/chosen.log")"
