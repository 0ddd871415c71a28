#!/usr/bin/env bash
# The packaged units: `systemd-analyze verify` passes on each, `systemd-analyze security` rates
# cardtabled.service's exposure 1.5 or lower (printed, with the hub's), each unit whose program links
# libzmq allows AF_NETLINK, and no unit's stop removes another's runtime folder.
set -euo pipefail
root="$1/root"
command -v systemd-analyze >/dev/null || { echo "systemd-analyze is missing (the systemd package; scripts/bootstrap installs it)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
for unit in "$root"/usr/lib/systemd/system/*.service; do
  name=$(basename "$unit")
  # verify checks that ExecStart's program exists: point it into the scratch root. A template is
  # verified as an instance of itself.
  [[ "$name" == *@.service ]] && name="${name%@.service}@example.service"
  sed -e "s#^ExecStart=/#ExecStart=$root/#" "$unit" >"$work/$name"
  # --man=no: the man pages are the package's (the layout test checks them), not this machine's.
  if out=$(systemd-analyze verify --man=no "$work/$name" 2>&1) && [ -z "$out" ]; then
    echo "verify $name: ok"
  else
    echo "verify $name: FAIL"
    echo "$out"
    fail=1
  fi
done
# libzmq (4.3.4) opens a netlink socket (getifaddrs) whenever it binds a tcp:// endpoint and aborts when
# RestrictAddressFamilies= refuses it: every unit whose program links libzmq must allow AF_NETLINK.
for unit in "$root"/usr/lib/systemd/system/*.service; do
  name=$(basename "$unit")
  exe=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$unit")
  readelf -d "$root$exe" 2>/dev/null | grep -q 'NEEDED.*libzmq' || continue
  families=$(sed -n 's/^RestrictAddressFamilies=//p' "$unit" | tr '\n' ' ')
  if [ -z "$families" ] || { [[ "$families" != *"~"* ]] && [[ " $families " == *" AF_NETLINK "* ]]; } ||
     { [[ "$families" == "~"* ]] && [[ " $families " != *" AF_NETLINK "* ]]; }; then
    echo "netlink $name: allowed ($exe links libzmq)"
  else
    echo "FAIL: $name runs $exe, which links libzmq, but RestrictAddressFamilies=$families refuses AF_NETLINK (libzmq aborts binding tcp)"
    fail=1
  fi
done
# A unit whose RuntimeDirectory= holds another unit's (cardtabled.service's /run/cardtable holds every
# cardtabled@NAME's /run/cardtable/NAME) must keep it when it stops (RuntimeDirectoryPreserve=yes):
# systemd removes the whole folder, and the other unit's ipc endpoints with it.
for unit in "$root"/usr/lib/systemd/system/*.service; do
  name=$(basename "$unit")
  for dir in $(sed -n 's/^RuntimeDirectory=//p' "$unit"); do
    for other in "$root"/usr/lib/systemd/system/*.service; do
      [ "$other" != "$unit" ] || continue
      for inner in $(sed -n 's/^RuntimeDirectory=//p' "$other"); do
        [[ "$inner" == "$dir/"* ]] || continue
        if grep -qx 'RuntimeDirectoryPreserve=yes' "$unit"; then
          echo "runtime $name: /run/$dir (holds $(basename "$other")'s /run/$inner) is kept at stop"
        else
          echo "FAIL: $name removes /run/$dir when it stops, with $(basename "$other")'s /run/$inner in it (RuntimeDirectoryPreserve=yes)"
          fail=1
        fi
      done
    done
  done
done
for name in cardtabled.service cardtable-hub.service; do
  level=$(systemd-analyze security --offline=true --no-pager "$work/$name" 2>&1 | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
  echo "security $name: exposure $level"
  [ -n "$level" ] || { echo "FAIL: no exposure level for $name"; fail=1; continue; }
  if [ "$name" = cardtabled.service ] && awk -v l="$level" 'BEGIN { exit !(l > 1.5) }'; then
    echo "FAIL: $name exposure $level is above 1.5"
    systemd-analyze security --offline=true --no-pager "$work/$name" | grep '✗' || true
    fail=1
  fi
done
exit $fail
