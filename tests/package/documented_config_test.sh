#!/usr/bin/env bash
# The documented first steps work as written, with the packaged files: the "point it at the demo" lines of
# operations.md (the packaged copy) added to the shipped cardtabled.conf start the daemon, which answers
# `cardtablectl status`; the shipped cardtable-hub.conf with the example CARDTABLE_HUB_OPTIONS of
# /etc/default/cardtable-hub starts the hub, which answers on its control endpoint. The shipped endpoints
# are fixed tcp ports, which another program on the machine may hold: each is given here on the command
# line (it wins over the config) on the same loopback host with a port the system picks, and the control
# endpoints the test asks on as ipc sockets in its folder. Plain tcp on loopback is what needs the demo's
# `plaintext = true` (ipc would not), so the step is still tested as written. As root they run as nobody, as the units' unprivileged user would.
set -euo pipefail
root="$(readlink -f "$1/root")"
work=$(mktemp -d /tmp/cardtable-documented.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
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
# The example's addresses, each on a port the system gives (its fixed port number becomes '*').
hub_options=$(echo "$hub_options" | sed -E 's#(tcp://[^ ]*):[0-9]+#\1:*#g')
mkdir -p "$work/state" "$work/run"
as=()
if [ "$(id -u)" -eq 0 ]; then
  chown nobody:nogroup "$work/state" "$work/run"
  as=(setpriv --reuid=nobody --regid=nogroup --clear-groups --no-new-privs --)
fi
fail=0

# Starts WHAT (the rest of the arguments: its command line), waits for its status on CONTROL, stops it.
answers() {
  local what=$1 control=$2 log=$3 pid out ok=""
  shift 3
  "${as[@]}" "$@" 2>"$log" & pid=$!
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || break
    if out=$("$root/usr/bin/cardtablectl" status --control "$control" 2>&1); then ok=1; break; fi
    sleep 0.2
  done
  if [ -n "$ok" ]; then
    echo "$what answers status: $(echo "$out" | head -1)"
  else
    wait "$pid"; echo "FAIL: $what does not answer status (exit status $?):"; cat "$log"; fail=1
  fi
  kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
}

# cardtabled as the unit starts it: --config and --state-dir.
answers "the daemon with the shipped config and the demo lines" "ipc://$work/run/control" "$work/daemon.log" \
  "$root/usr/sbin/cardtabled" --config "$work/cardtabled.conf" --state-dir "$work/state" --analyzer "$root/usr/bin/cardtablectl" \
  --publish "bind:tcp://127.0.0.1:*" --control "bind:ipc://$work/run/control" --live "bind:tcp://127.0.0.1:*"
# cardtable-hub as its unit starts it: --config, then $CARDTABLE_HUB_OPTIONS unquoted.
# shellcheck disable=SC2086
answers "the hub with the shipped config and CARDTABLE_HUB_OPTIONS=\"$hub_options\"" "ipc://$work/run/hub-control" "$work/hub.log" \
  "$root/usr/sbin/cardtable-hub" --config "$root/usr/share/cardtable/cardtable-hub.conf" $hub_options \
  --downstream "tcp://127.0.0.1:*" --control "ipc://$work/run/hub-control"
exit $fail
