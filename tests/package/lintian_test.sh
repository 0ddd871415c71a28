#!/usr/bin/env bash
# lintian on the package: every tag printed, errors fail.
set -euo pipefail
deb="$1/cardtable.deb"
command -v lintian >/dev/null || { echo "lintian is not installed (scripts/bootstrap installs it)"; exit 1; }
set +e
out=$(lintian --fail-on error --display-info --no-tag-display-limit --allow-root "$(readlink -f "$deb")" 2>&1)
status=$?
set -e
echo "$out"
echo "lintian: $(grep -c '^E:' <<<"$out" || true) errors, $(grep -c '^W:' <<<"$out" || true) warnings, exit $status"
exit $status
