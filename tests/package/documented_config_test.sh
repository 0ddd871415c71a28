#!/usr/bin/env bash
# The documented first steps work as written, with the packaged files: the "point it at the demo" lines of
# operations.md (the packaged copy) added to the shipped cardtabled.conf start the daemon, which answers
# `cardtablectl status` on the shipped control endpoint; the shipped cardtable-hub.conf with the example
# CARDTABLE_HUB_OPTIONS of /etc/default/cardtable-hub starts the hub, which answers on its control
# endpoint. Both bind the shipped tcp ports on 127.0.0.1, so they run in a network namespace of their own
# (unshare; skipped, exit 77, where that is not allowed). As root they run as nobody, as the units'
# unprivileged user would.
set -euo pipefail
root="$(readlink -f "$1/root")"
work=$(mktemp -d /tmp/cardtable-documented.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
ns=(unshare --net)
[ "$(id -u)" -eq 0 ] || ns+=(--map-root-user)
"${ns[@]}" true 2>/dev/null || { echo "SKIP: no network namespace (unshare --net) here"; exit 77; }

# The lines operations.md gives: the first ```ini block after "point it at the demo".
demo=$(awk '/point it at the demo/ { at = NR } at && !inside && NR - at > 4 { exit } at && /^```ini/ { inside = 1; next }
             inside && /^```/ { exit } inside { print }' \
  "$root/usr/share/doc/cardtable/operations.md")
[ -n "$demo" ] || { echo "FAIL: operations.md has no \`\`\`ini block after \"point it at the demo\""; exit 1; }
{ cat "$root/usr/share/cardtable/cardtabled.conf"; echo "$demo"; } | sed "s#/usr/share/cardtable#$root/usr/share/cardtable#g" >"$work/cardtabled.conf"
# The one-off example of /etc/default/cardtable-hub.
hub_options=$(sed -n 's/^#[[:space:]]*CARDTABLE_HUB_OPTIONS="\(.*\)"$/\1/p' "$root/etc/default/cardtable-hub" | head -1)
[ -n "$hub_options" ] || { echo "FAIL: /etc/default/cardtable-hub gives no example CARDTABLE_HUB_OPTIONS"; exit 1; }
echo "operations.md's demo lines:"; echo "$demo" | sed 's/^/  /'
echo "/etc/default/cardtable-hub's example: CARDTABLE_HUB_OPTIONS=\"$hub_options\""
mkdir -p "$work/state" "$work/hubrun"
[ "$(id -u)" -ne 0 ] || chown nobody:nogroup "$work/state" "$work/hubrun"

cat >"$work/in_ns.sh" <<'IN'
set -u
root=$1 work=$2 hub_options=$3 as_nobody=$4
ip link set lo up
as=()
[ "$as_nobody" = 0 ] || as=(setpriv --reuid=nobody --regid=nogroup --clear-groups --no-new-privs --)
fail=0
# cardtabled as the unit starts it: --config and --state-dir.
"${as[@]}" "$root/usr/sbin/cardtabled" --config "$work/cardtabled.conf" --state-dir "$work/state" --analyzer "$root/usr/bin/cardtablectl" \
  2>"$work/daemon.log" & pid=$!
ok=""
for _ in $(seq 1 50); do
  kill -0 "$pid" 2>/dev/null || break
  if out=$("$root/usr/bin/cardtablectl" status --control tcp://127.0.0.1:5552 2>&1); then ok=1; break; fi
  sleep 0.2
done
if [ -n "$ok" ]; then echo "demo: the daemon answers status: $(echo "$out" | head -1)"
else
  wait "$pid"; echo "FAIL: the daemon with the shipped config and the demo lines does not answer status (exit status $?):"
  cat "$work/daemon.log"; fail=1
fi
kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
# cardtable-hub as its unit starts it: --config, then $CARDTABLE_HUB_OPTIONS unquoted.
# shellcheck disable=SC2086
"${as[@]}" "$root/usr/sbin/cardtable-hub" --config "$root/usr/share/cardtable/cardtable-hub.conf" $hub_options 2>"$work/hub.log" & pid=$!
ok=""
for _ in $(seq 1 50); do
  kill -0 "$pid" 2>/dev/null || break
  if out=$("$root/usr/bin/cardtablectl" status --control tcp://127.0.0.1:5562 2>&1); then ok=1; break; fi
  sleep 0.2
done
if [ -n "$ok" ]; then echo "hub: answers status: $(echo "$out" | head -1)"
else
  wait "$pid"; echo "FAIL: the hub with the shipped config and CARDTABLE_HUB_OPTIONS=\"$hub_options\" does not answer status (exit status $?):"
  cat "$work/hub.log"; fail=1
fi
kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
exit $fail
IN
"${ns[@]}" bash "$work/in_ns.sh" "$root" "$work" "$hub_options" "$([ "$(id -u)" -eq 0 ] && echo 1 || echo 0)"
