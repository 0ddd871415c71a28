#!/usr/bin/python3
"""Live events while 10,000 replays are served (issue 8): the real cardtabled, the demo table looping,
a subscriber timing the gaps between the events it receives, and one client sending 10,000
{"command":"replay","since":1} at once on a DEALER. Prints the largest gap between live events before and
during the flood, and how long the flood took. Measures; asserts nothing.

usage: replay_flood.py CARDTABLED SCENARIO MASTER [REQUESTS]
"""
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

import zmq

daemon, scenario, master = sys.argv[1:4]
requests = int(sys.argv[4]) if len(sys.argv) > 4 else 10000
tmp = tempfile.mkdtemp(prefix="replay-flood-")
pub, ctl, live = ("ipc://%s/%s" % (tmp, n) for n in ("pub", "ctl", "live"))
proc = subprocess.Popen([daemon, "--master", master, "--simulate", scenario, "--loop", "--speed", "300", "--analyzer", "/bin/true", "--plaintext",
                         "--state-dir", tmp + "/state", "--publish", "bind:" + pub, "--control", "bind:" + ctl,
                         "--live", "bind:" + live, "--heartbeat", "0.05"], stderr=subprocess.DEVNULL)
ctx = zmq.Context()
sub = ctx.socket(zmq.SUB)
sub.connect(pub)
sub.setsockopt(zmq.SUBSCRIBE, b"")
arrivals = []
stop = threading.Event()


def listen():
    while not stop.is_set():
        if sub.poll(20):
            sub.recv_multipart()
            arrivals.append(time.monotonic())


threading.Thread(target=listen, daemon=True).start()
req = ctx.socket(zmq.REQ)
req.connect(ctl)
time.sleep(20)  # the journal fills (the double-dummy helper is /bin/true: its CPU is not what is measured)
req.send_json({"command": "status"})
last_seq = req.recv_json()["status"]["last_seq"]


def max_gap(t0, t1):
    a = [t for t in arrivals if t0 <= t <= t1]
    return max((b - x for x, b in zip(a, a[1:])), default=float("nan")), len(a)


base0 = time.monotonic()
time.sleep(3)
base_gap, base_n = max_gap(base0, time.monotonic())

dealer = ctx.socket(zmq.DEALER)
dealer.setsockopt(zmq.SNDHWM, 0)
dealer.setsockopt(zmq.RCVHWM, 0)
dealer.connect(ctl)
body = json.dumps({"command": "replay", "since": 1}).encode()
flood0 = time.monotonic()
received = 0


def answers():
    global received
    while received < requests and time.monotonic() - flood0 < 300:
        if dealer.poll(100):
            dealer.recv_multipart()
            received += 1


t = threading.Thread(target=answers)
t.start()
for _ in range(requests):
    dealer.send_multipart([b"", body])
t.join()
flood1 = time.monotonic()
flood_gap, flood_n = max_gap(flood0, flood1)
stop.set()
proc.terminate()
proc.wait()
print("replay flood: %d replay-since-1 requests over a journal of %d events answered in %.1f s (%d answered)"
      % (requests, last_seq, flood1 - flood0, received))
print("  largest gap between live events: %.3f s before the flood (%d events in 3 s), %.3f s during it (%d events)"
      % (base_gap, base_n, flood_gap, flood_n))
