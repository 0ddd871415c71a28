#!/usr/bin/env bash
# Every option that --help lists is in the man page (and cardtabled's in the example config); the man
# pages render without groff warnings.
set -euo pipefail
cardtabled="$1" cardtablectl="$2" hub="$3" man="$4" example="$5" console="$6" vision="${7:-}"
fail=0
options() { grep -oE -- '--[a-z][a-z0-9-]+' | sort -u; }
# The man page's text with roff's escaped dashes as plain ones.
page() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$man/$1"; }
check() {  # check PAGE HELP-TEXT [POSITIONAL...]: positional arguments appear in --help as options too
  local text missing=() skip=" ${*:3} "
  text=$(page "$1")
  while read -r opt; do
    [[ "$skip" == *" ${opt#--} "* ]] && continue
    grep -qF -- "$opt" <<<"$text" || missing+=("$opt")
  done < <(options <<<"$2")
  if ((${#missing[@]})); then
    echo "FAIL: $1 lacks ${missing[*]}"
    fail=1
  else
    echo "$1: all $(options <<<"$2" | wc -l) options of --help"
  fi
}
check cardtabled.8 "$("$cardtabled" --help)"
check cardtable-hub.8 "$("$hub" --help)"
if [ -n "$vision" ]; then  # built only with OpenCV
  vision_help=""
  for cmd in eval read calibrate enroll; do vision_help+=$("$vision" $cmd --help 2>&1 || true)$'\n'; done
  check cardtable-vision.1 "$vision_help"$'\n'"$("$vision" --help 2>&1 || true)"
fi
check cardtable-console.1 "$("$console" --help; "$console" hash-password --help; "$console" make-cert --help)"
ctl_help=""
for cmd in "records validate" "records show" "records convert" "records lookup" "records analyze" "records generate" \
           simulate watch status keygen; do
  # shellcheck disable=SC2086
  ctl_help+=$("$cardtablectl" $cmd --help 2>&1 || true)$'\n'
done
# Only option lines: keygen's prose mentions cardtabled's --clients.
check cardtablectl.1 "$(grep -E '^ +(-[a-z] \[ )?--' <<<"$ctl_help")" arg name path scenario deal
# The example config: every option but the command-line-only ones, by name.
while read -r opt; do
  name=${opt#--}
  case "$name" in help | version | config) continue ;; esac
  grep -qE "^#? ?$name = " "$example" || { echo "FAIL: the example config lacks $name"; fail=1; }
done < <("$cardtabled" --help | options)
if command -v groff >/dev/null; then
  for p in "$man"/*.[158]; do
    if w=$(groff -man -ww -z "$p" 2>&1) && [ -z "$w" ]; then :; else echo "FAIL: groff warns on $(basename "$p"): $w"; fail=1; fi
  done
fi
exit $fail
