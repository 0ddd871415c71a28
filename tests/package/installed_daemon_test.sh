#!/usr/bin/env bash
# The installed cardtabled, run from a scratch root as an unprivileged user (setpriv to nobody when the
# test runs as root): it starts with the packaged example config and the packaged simulated table,
# answers `cardtablectl status`, and every line it logs carries a syslog priority. It also tells a
# notify socket what Type=notify and WatchdogSec= wait for: READY=1, then WATCHDOG=1 pings.
set -euo pipefail
deb="$(readlink -f "$1/cardtable.deb")"
work=$(mktemp -d /tmp/cardtable-installed.XXXXXX)
pid="" listener=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  [ -n "$listener" ] && kill "$listener" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
chmod 755 "$work"
dpkg-deb -x "$deb" "$work/root"
root="$work/root"
mkdir -p "$work/state" "$work/run"
chmod 755 "$work/run"
# A stand-in for systemd's notify socket (sd_notify(3): one datagram a message).
python3 - "$work/run/notify" "$work/notify.log" <<'PY' &
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
os.chmod(sys.argv[1], 0o777)
s.settimeout(20)
with open(sys.argv[2], "a") as log:
    while True:
        try:
            log.write(s.recv(4096).decode() + "\n")
            log.flush()
        except socket.timeout:
            break
PY
listener=$!
for _ in $(seq 1 50); do [ -S "$work/run/notify" ] && break; sleep 0.1; done
as=()
if [ "$(id -u)" -eq 0 ]; then
  chown nobody:nogroup "$work/state" "$work/run"
  as=(setpriv --reuid=nobody --regid=nogroup --clear-groups --no-new-privs --)
fi
NOTIFY_SOCKET="$work/run/notify" WATCHDOG_USEC=400000 "${as[@]}" "$root/usr/sbin/cardtabled" \
  --config "$root/usr/share/cardtable/cardtabled.conf" \
  --master "$root/usr/share/cardtable/sample" --simulate "$root/usr/share/cardtable/sample/demo-table.scn" --speed 100 \
  --state-dir "$work/state" --publish "bind:ipc://$work/run/pub" --control "bind:ipc://$work/run/ctl" \
  --live "bind:ipc://$work/run/live" --analyzer "$root/usr/bin/cardtablectl" 2>"$work/log" &
pid=$!
status=""
for _ in $(seq 1 50); do
  if status=$("${as[@]}" "$root/usr/bin/cardtablectl" status --control "ipc://$work/run/ctl" --json 2>/dev/null); then break; fi
  status=""
  sleep 0.2
done
user=$(ps -o user= -p "$pid" || true)
[ -n "$status" ] || { echo "FAIL: no answer to status"; cat "$work/log"; exit 1; }
echo "status (daemon running as ${user}): $status"
grep -q '"last_seq"' <<<"$status" || { echo "FAIL: status has no last_seq"; exit 1; }
[ "$(id -u)" -ne 0 ] || [ "$user" = nobody ] || { echo "FAIL: the daemon runs as $user"; exit 1; }
# The demo table ends with a fouled board: wait for the scenario to finish, so that its alert is logged.
for _ in $(seq 1 150); do
  "${as[@]}" "$root/usr/bin/cardtablectl" status --control "ipc://$work/run/ctl" --json 2>/dev/null | grep -q '"finished": true' && break
  sleep 0.2
done
kill -TERM "$pid"
wait "$pid" && code=0 || code=$?
pid=""
echo "--- its log (exit status $code):"
cat "$work/log"
[ "$code" -eq 0 ] || { echo "FAIL: exit status $code after SIGTERM"; exit 1; }
[ -s "$work/log" ] || { echo "FAIL: it logged nothing"; exit 1; }
if grep -vqE '^<[0-7]>cardtabled: ' "$work/log"; then
  echo "FAIL: lines without a syslog priority:"
  grep -vE '^<[0-7]>cardtabled: ' "$work/log"
  exit 1
fi
grep -qE '^<[0-4]>' "$work/log" || { echo "FAIL: the demo table's irregularities were not logged at warning or above"; exit 1; }
grep -q '^READY=1' "$work/notify.log" || { echo "FAIL: no READY=1 on the notify socket"; cat "$work/notify.log"; exit 1; }
pings=$(grep -c '^WATCHDOG=1' "$work/notify.log" || true)
[ "$pings" -ge 2 ] || { echo "FAIL: $pings WATCHDOG=1 pings with WATCHDOG_USEC=400000"; exit 1; }
echo "ok: $(wc -l <"$work/log") log lines, each with its priority; READY=1 and $pings watchdog pings"
