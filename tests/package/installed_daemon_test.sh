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
# The reason first, then what it rests on: a CI report keeps the head of a failed test's output.
status="" code=""
fail() {
  echo "FAIL: $*"
  echo "--- the daemon's log (exit status ${code:-not yet}):"; cat "$work/log" 2>/dev/null || true
  echo "--- the notify socket's messages:"; cat "$work/notify.log" 2>/dev/null || true
  echo "--- status: $status"
  exit 1
}
chmod 755 "$work"
dpkg-deb -x "$deb" "$work/root"
root="$work/root"
mkdir -p "$work/state" "$work/run"
chmod 755 "$work/run"
# A stand-in for systemd's notify socket (sd_notify(3): one datagram a message).
python3 - "$work/run/notify" "$work/notify.log" <<'PY' &
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
# Created writable for nobody: a chmod after bind left a moment where the socket existed (the shell's
# wait below ends) but the daemon, already running as nobody, could not send its READY=1 to it.
os.umask(0)
s.bind(sys.argv[1])
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
for _ in $(seq 1 50); do
  if status=$("${as[@]}" "$root/usr/bin/cardtablectl" status --control "ipc://$work/run/ctl" --json 2>/dev/null); then break; fi
  status=""
  sleep 0.2
done
user=$(ps -o user= -p "$pid" || true)
[ -n "$status" ] || fail "no answer to status"
grep -q '"last_seq"' <<<"$status" || fail "status has no last_seq"
[ "$(id -u)" -ne 0 ] || [ "$user" = nobody ] || fail "the daemon runs as $user"
# The demo table ends with a fouled board: wait for the scenario to finish, so that its alert is logged.
for _ in $(seq 1 150); do
  "${as[@]}" "$root/usr/bin/cardtablectl" status --control "ipc://$work/run/ctl" --json 2>/dev/null | grep -q '"finished": true' && break
  sleep 0.2
done
kill -TERM "$pid"
wait "$pid" && code=0 || code=$?
pid=""
[ "$code" -eq 0 ] || fail "exit status $code after SIGTERM"
[ -s "$work/log" ] || fail "it logged nothing"
if grep -vqE '^<[0-7]>cardtabled: ' "$work/log"; then
  fail "lines without a syslog priority: $(grep -vE '^<[0-7]>cardtabled: ' "$work/log" | head -5)"
fi
grep -qE '^<[0-4]>' "$work/log" || fail "the demo table's irregularities were not logged at warning or above"
grep -q '^READY=1' "$work/notify.log" || fail "no READY=1 on the notify socket"
pings=$(grep -c '^WATCHDOG=1' "$work/notify.log" || true)
[ "$pings" -ge 2 ] || fail "$pings WATCHDOG=1 pings with WATCHDOG_USEC=400000"
echo "status (daemon running as ${user}): $status"
echo "--- its log (exit status $code):"
cat "$work/log"
echo "ok: $(wc -l <"$work/log") log lines, each with its priority; READY=1 and $pings watchdog pings"
