#!/bin/sh
# cardtable-vision on bad input says what is wrong and where.
# `read A B C`: an image that is missing or cannot be decoded is named on stderr with what is wrong with
# it, the images after it are still read, and the exit status says one was not.
# `enroll`: a missing folder, and a folder with no photo named after a card, are said as such.
# Usage: tool_bad_input.sh WORKDIR CARDTABLE_VISION... (the tool's command: in a cross build, the emulator
# and the arm64 tool)
set -u
dir=$1; shift
rm -rf "$dir" && mkdir -p "$dir" || exit 1
printf 'P5\n1 1\n255\n\000' > "$dir/blank.pgm"     # a 1x1 grey image: read, no card in it
printf 'not a jpeg' > "$dir/garbage.jpg"
# A 4000x3 image, valid but narrow: its height scaled to 0 and OpenCV's assertion ended the whole run.
{ printf 'P5\n4000 3\n255\n'; head -c 12000 /dev/zero; } > "$dir/sliver.pgm"
"$@" read "$dir/missing.png" "$dir/sliver.pgm" "$dir/garbage.jpg" "$dir/blank.pgm" > "$dir/out" 2> "$dir/err"
rc=$?
fail() { echo "FAIL: $1"; echo "-- stdout:"; cat "$dir/out"; echo "-- stderr:"; cat "$dir/err"; exit 1; }
[ "$rc" = 1 ] || fail "exit status $rc, want 1"
grep -q "missing.png: no such file" "$dir/err" || fail "the missing file is not named as missing"
grep -q "garbage.jpg: not an image OpenCV can decode" "$dir/err" || fail "the undecodable file is not named"
grep -q "WARN" "$dir/err" && fail "OpenCV's own warning was printed as well"
grep -q "^$dir/sliver.pgm:" "$dir/out" || fail "the narrow image was not read"
grep -q "^$dir/blank.pgm:" "$dir/out" || fail "the image after the bad ones was not read"
"$@" read "$dir/missing.png" "$dir/blank.pgm" --json > "$dir/out" 2> "$dir/err"
[ $? = 1 ] || fail "--json: exit status, want 1"
grep -q '"error": "'"$dir"'/missing.png: no such file"' "$dir/out" || fail "--json: the missing image has no error entry"
grep -q '"refused": 0' "$dir/out" || fail "--json: the readable image was not read"

"$@" enroll --images "$dir/no-such-folder" --out "$dir/deck.txt" 2> "$dir/err"
[ $? = 1 ] || fail "enroll of a missing folder: exit status, want 1"
grep -q "no-such-folder: no such folder" "$dir/err" || fail "enroll: the missing folder is not named as missing"
mkdir "$dir/photos" && cp "$dir/blank.pgm" "$dir/photos/table.pgm"
"$@" enroll --images "$dir/photos" --out "$dir/deck.txt" 2> "$dir/err"
[ $? = 1 ] || fail "enroll with no card photo: exit status, want 1"
grep -q "table.pgm: skipped (the name is not a card)" "$dir/err" || fail "enroll: the skipped photo is not named"
grep -q "none of the 1 files in $dir/photos is a photo of a card named after it" "$dir/err" || fail "enroll: no word on why no card"
[ -e "$dir/deck.txt" ] && fail "enroll wrote a deck with no card"
# calibrate --png with a name of no image format: said before the zones file is written.
"$@" calibrate --frame "$dir/blank.pgm" --out "$dir/zones.txt" --png "$dir/zones.xyz" > "$dir/out" 2> "$dir/err"
[ $? = 2 ] || fail "calibrate --png x.xyz: exit status, want 2"
grep -q "no image format by that name" "$dir/err" || fail "calibrate: the --png name is not said"
[ -e "$dir/zones.txt" ] && fail "calibrate wrote the zones file before refusing --png"
# eval of a dataset with no image measured nothing and said precision and recall 100 %, exit 0.
mkdir -p "$dir/empty/images" "$dir/empty/labels" && echo "names: ['AS']" > "$dir/empty/data.yaml"
"$@" eval --dataset "$dir/empty" > "$dir/out" 2> "$dir/err"
[ $? = 1 ] || fail "eval of no image: exit status, want 1"
grep -q "empty: no image to measure" "$dir/err" || fail "eval: no word that nothing was measured"
echo "ok"
