#!/usr/bin/python3
"""Live events while 10,000 replays are served (issue 8): the real cardtabled, the demo table looping,
a subscriber timing every event it receives against the event's own "time" (the daemon's wall clock when
it made the event: same machine), and replay clients on DEALER sockets. Three phases:

  quiet   3 s with no requests: the baseline.
  flood   one client sends 10,000 {"command":"replay","since":1} at once; the daemon takes at most
          4 journal reads per client and refuses the rest at once (counted).
  served  10,000 replays served to the end: 4 clients, each keeping 4 requests outstanding (the
          per-client bound), each reply up to 5,000 events of the journal.

For each phase: live event delay (arrival - time) median, p99 and max, the largest gap between live
events, the number of live events. In the served phase every reply is checked whole: `ok`, `first_available` 1,
one event for each seq from 1 to its `last_seq` or the first 5,000 of them with `more` true (the reply's
cap) -- counted in the bytes, not parsed: Python's JSON decoder would be the bottleneck. Measures; asserts nothing.

usage: replay_flood.py CARDTABLED SCENARIO MASTER [REQUESTS [SERVED [SPEED]]]   (SERVED: the served phase's
count, default REQUESTS; SPEED: the looping table's, default 300 -- its journal grows by about 50 events a
second at 300, and a reply holds up to 5,000: 10,000 served replays of a journal grown that big take most
of an hour on a loaded 2-core machine, at 30 about ten minutes)
"""
import atexit
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import zmq

daemon, scenario, master = sys.argv[1:4]
requests = int(sys.argv[4]) if len(sys.argv) > 4 else 10000
to_serve = int(sys.argv[5]) if len(sys.argv) > 5 else requests
speed = sys.argv[6] if len(sys.argv) > 6 else "300"
tmp = tempfile.mkdtemp(prefix="replay-flood-")
atexit.register(shutil.rmtree, tmp, True)  # the journal: tens of MB
pub, ctl, live = ("ipc://%s/%s" % (tmp, n) for n in ("pub", "ctl", "live"))
proc = subprocess.Popen([daemon, "--master", master, "--simulate", scenario, "--loop", "--speed", speed, "--analyzer", "/bin/true", "--plaintext",
                         "--state-dir", tmp + "/state", "--publish", "bind:" + pub, "--control", "bind:" + ctl,
                         "--live", "bind:" + live, "--heartbeat", "0.05"], stderr=subprocess.DEVNULL)
ctx = zmq.Context()
sub = ctx.socket(zmq.SUB)
sub.connect(pub)
sub.setsockopt(zmq.SUBSCRIBE, b"")
arrivals = []  # (arrival monotonic, delay = arrival wall - event time)
stop = threading.Event()


def listen():
    while not stop.is_set():
        if sub.poll(20):
            _, body = sub.recv_multipart()
            now = time.time()
            arrivals.append((time.monotonic(), now - json.loads(body)["time"]))


threading.Thread(target=listen, daemon=True).start()
req = ctx.socket(zmq.REQ)
req.connect(ctl)
time.sleep(20)  # the journal fills (the double-dummy helper is /bin/true: its CPU is not what is measured)
req.send_json({"command": "status"})
last_seq = req.recv_json()["status"]["last_seq"]
body = json.dumps({"command": "replay", "since": 1}).encode()


def report(name, t0, t1, extra):
    a = [x for x in arrivals if t0 <= x[0] <= t1]
    delays = [d for _, d in a]
    gaps = [b[0] - x[0] for x, b in zip(a, a[1:])]
    p99 = statistics.quantiles(delays, n=100, method="inclusive")[98] if len(delays) >= 2 else float("nan")
    print("  %-6s %6.1f s  live delay median %.4f s, p99 %.4f s, max %.4f s; largest gap %.3f s; %d live events%s"
          % (name, t1 - t0, statistics.median(delays) if delays else float("nan"), p99, max(delays, default=float("nan")),
             max(gaps, default=float("nan")), len(a), extra))


t0 = time.monotonic()
time.sleep(3)
report_quiet = (t0, time.monotonic())

# flood: everything at once from one client.
dealer = ctx.socket(zmq.DEALER)
dealer.setsockopt(zmq.SNDHWM, 0)
dealer.setsockopt(zmq.RCVHWM, 0)
dealer.connect(ctl)
flood0 = time.monotonic()
for _ in range(requests):
    dealer.send_multipart([b"", body])
ok = refused = 0
while ok + refused < requests and time.monotonic() - flood0 < 300:
    if dealer.poll(30000) == 0:
        break  # no reply for 30 s: the rest are lost (the daemon logs and counts replies it could not send)
    if True:
        r = json.loads(dealer.recv_multipart()[-1])
        if r["ok"]:
            ok += 1
        else:
            refused += 1
flood1 = time.monotonic()
flood_extra = "; %d served, %d refused at once, %d unanswered" % (ok, refused, requests - ok - refused)
print("flood phase done: %d ok, %d refused in %.1f s" % (ok, refused, flood1 - flood0), file=sys.stderr, flush=True)

# served: every request answered with events, 4 clients x 4 outstanding.
served = [0]
lock = threading.Lock()
bytes_sent = [0]
not_whole = []  # replies that were ok but did not hold every event from 1 to their last_seq


def whole(m):
    """True when a `replay since 1` reply holds every event 1..last_seq, or the first 5,000 (the most a
    reply holds) with `more`. Each event has an integer "seq" ("seq":N); an evidence value is a string
    ("seq":"N")."""
    at = m.rfind(b'"last_seq":')
    last = int(m[at + 11:m.index(b",", at)])
    events = m.count(b'"seq":') - m.count(b'"seq":"')
    more = b'"more":true' in m
    return b'"first_available":1,' in m and events == min(last, 5000) and more == (last > 5000)


def client(n):
    d = ctx.socket(zmq.DEALER)
    d.connect(ctl)
    outstanding = 0
    sent = 0
    while True:
        while outstanding < 4 and sent < n:
            d.send_multipart([b"", body])
            sent += 1
            outstanding += 1
        if outstanding == 0:
            break
        if d.poll(1000):
            m = d.recv_multipart()[-1]
            outstanding -= 1
            if m.endswith(b'"ok":true}'):  # the reply's keys are sorted: "ok" comes last (not parsed: Python is slow)
                ok_whole = whole(m)
                with lock:
                    served[0] += 1
                    bytes_sent[0] += len(m)
                    if not ok_whole:
                        not_whole.append(m[:200])
            else:
                sent -= 1  # refused (the daemon's bound in all): asked again
    d.close()


serve0 = time.monotonic()
threads = [threading.Thread(target=client, args=(to_serve // 4,)) for _ in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
serve1 = time.monotonic()
stop.set()
req.send_json({"command": "status"})
final = req.recv_json()["status"]
end_seq, dropped = final["last_seq"], final.get("control_replies_dropped", "?")
proc.terminate()
proc.wait()
print("replay flood (table at speed %s): %d replay-since-1 requests at once, then %d served; journal %d events at the start, %d at the end; "
      "control_replies_dropped %s" % (speed, requests, to_serve, last_seq, end_seq, dropped))
report("quiet", *report_quiet, "")
report("flood", flood0, flood1, flood_extra)
report("served", serve0, serve1, "; %d replies, %d of them whole, %.0f MB of JSON" % (served[0], served[0] - len(not_whole), bytes_sent[0] / 1e6))
for m in not_whole[:5]:
    print("  not whole: %r" % m)
