#!/usr/bin/env bash
# Builds the .deb with CPack from the build folder $1 and unpacks it into $2/root (control files in
# $2/control): the fixture the other package tests read.
set -euo pipefail
build="$1" out="$2"
rm -rf "$out/deb" "$out/root" "$out/control"
mkdir -p "$out/deb"
if ! cpack --config "$build/CPackConfig.cmake" -G DEB -B "$out/deb" >"$out/deb/cpack.log" 2>&1; then
  cat "$out/deb/cpack.log"
  exit 1
fi
debs=("$out"/deb/*.deb)
[ ${#debs[@]} -eq 1 ] || { echo "expected one .deb, found: ${debs[*]}"; exit 1; }
dpkg-deb -x "${debs[0]}" "$out/root"
dpkg-deb -e "${debs[0]}" "$out/control"
ln -sf "${debs[0]}" "$out/cardtable.deb"
echo "built $(basename "${debs[0]}") ($(stat -c %s "${debs[0]}") bytes)"
dpkg-deb -I "${debs[0]}" | sed -n '/Package:/,$p'
