#!/usr/bin/env bash
# The udev rules and the devices data file agree: every reader model ("usb = VID:PID") has a rule that
# gives it to the daemon's group with a /dev/cardtable/ name and a systemd tag; the known models
# (ACR122U, the cardtable board) are there even before the data file is.
set -euo pipefail
rules="$1" quirks="$2"
fail=0
ids=("072f:2200" "1209:0001")
if [ -f "$quirks" ]; then
  mapfile -t -O "${#ids[@]}" ids < <(sed -n 's/^usb *= *\([0-9a-fA-F]\{4\}:[0-9a-fA-F]\{4\}\).*/\1/p' "$quirks")
else
  echo "no $quirks yet: checking the known models only"
fi
# One logical rule a line (udev's backslash continuations joined).
joined=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$rules")
for id in $(printf '%s\n' "${ids[@]}" | tr 'A-F' 'a-f' | sort -u); do
  vid=${id%:*} pid=${id#*:}
  rule=$(grep -F "ATTR{idVendor}==\"$vid\", ATTR{idProduct}==\"$pid\"" <<<"$joined" || true)
  if [ -z "$rule" ]; then echo "FAIL: no rule for $id"; fail=1; continue; fi
  for need in 'GROUP="cardtable"' 'SYMLINK+="cardtable/' 'TAG+="systemd"' 'MODE="0660"'; do
    grep -qF "$need" <<<"$rule" || { echo "FAIL: the rule for $id lacks $need"; fail=1; }
  done
  echo "$id: rule ok"
done
exit $fail
