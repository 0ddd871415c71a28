#!/usr/bin/python3
"""How long `cardtablectl watch -c HUB` holds back live events while it fills a big gap of one table.

The real cardtable-hub and cardtablectl; table 1's control endpoint is played here (a ROUTER answering
`alerts` and `replay` from a journal of GAP+2 made-up events, 5,000 a page as cardtabled's, each page
after PAGE_DELAY seconds: the daemon's journal read), table 2 publishes an event every 10 ms. Table 1
publishes seq 1, then seq GAP+2: watch replays 2..GAP+1 from table 1's endpoint. Every line watch prints
is timed as it comes; table 2's lines give the stall: the largest gap between two of them, and their
delay (arrival - the event's own time) while the replay runs. Measures; asserts nothing.

usage: watch_replay_stall.py CARDTABLE-HUB CARDTABLECTL [GAP [PAGE_DELAY]]   (defaults 50000, 0.1)
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import zmq

hub_bin, ctl_bin = sys.argv[1:3]
gap = int(sys.argv[3]) if len(sys.argv) > 3 else 50000
page_delay = float(sys.argv[4]) if len(sys.argv) > 4 else 0.1
tmp = tempfile.mkdtemp(prefix="watch-stall-")
up, down, hubctl, t1ctl = ("ipc://%s/%s" % (tmp, n) for n in ("up", "down", "hubctl", "t1ctl"))
ctx = zmq.Context()
stop = threading.Event()


def event(table, seq, journal):
    return {"class": "irregularity", "type": "irregularity.test", "severity": "info", "time": time.time(), "mono": 1.0,
            "tournament": "default", "section": "A", "table": table, "seq": seq, "journal": journal, "board": 7,
            "message": "Board 7: table %s event %d, a line about as long as a real one" % (table, seq)}


def table1_control():
    r = ctx.socket(zmq.ROUTER)
    r.bind(t1ctl)
    last = gap + 2
    while not stop.is_set():
        if not r.poll(50):
            continue
        *envelope, body = r.recv_multipart()
        q = json.loads(body)
        if q["command"] == "replay":
            time.sleep(page_delay)
            since = q["since"]
            upto = min(last, since + 4999)
            reply = {"ok": True, "events": [event("1", s, "j1") for s in range(since, upto + 1)], "more": upto < last,
                     "first_available": 1, "last_seq": last, "journal": "j1"}
        else:
            reply = {"ok": True, "alerts": [], "journal": "j1"}
        r.send_multipart(envelope + [json.dumps(reply).encode()])


threading.Thread(target=table1_control, daemon=True).start()
hub = subprocess.Popen([hub_bin, "--upstream", up, "--downstream", down, "--control", hubctl, "--table-control", "default/A/1=" + t1ctl],
                       stderr=subprocess.DEVNULL)
watch = subprocess.Popen([ctl_bin, "watch", "-e", down, "-c", hubctl, "--json"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
lines = []  # (arrival monotonic, arrival wall, event)


def read():
    for line in watch.stdout:
        lines.append((time.monotonic(), time.time(), json.loads(line)))


threading.Thread(target=read, daemon=True).start()
pub = ctx.socket(zmq.PUB)
pub.connect(up)


def send(e):
    pub.send_multipart([("irregularity/default/A/%s/irregularity.test" % e["table"]).encode(), json.dumps(e).encode()])


seq2 = 0
# Until watch shows table 2 (the subscriptions are through), then table 1's seq 1.
while not any(e["table"] == "2" for _, _, e in lines):
    seq2 += 1
    send(event("2", seq2, "j2"))
    time.sleep(0.01)
send(event("1", 1, "j1"))
time.sleep(0.5)
jump = time.monotonic()
send(event("1", gap + 2, "j1"))
end = jump + 20
while time.monotonic() < end and not any(e["table"] == "1" and e["seq"] == gap + 2 for _, _, e in lines):
    seq2 += 1
    send(event("2", seq2, "j2"))
    time.sleep(0.01)
for _ in range(100):  # one more second of table 2
    seq2 += 1
    send(event("2", seq2, "j2"))
    time.sleep(0.01)
stop.set()
watch.terminate()
hub.terminate()
watch.wait()
hub.wait()
shutil.rmtree(tmp, True)

replayed = [t for t, _, e in lines if e["table"] == "1" and 2 <= e["seq"] <= gap + 1]
t2 = [(t, w - e["time"]) for t, w, e in lines if e["table"] == "2" and t >= jump]
arrivals = [jump] + [t for t, _ in t2]  # from the jump: the replay may hold the first of them back
gaps = [b - a for a, b in zip(arrivals, arrivals[1:])]
delays = [d for _, d in t2]
print("gap of %d events, %.2f s a page: replayed %d of them in %.2f s (the jump to the last replayed line); "
      "table 2 meanwhile: largest gap between its lines %.3f s, delay median %.3f s, max %.3f s (%d lines)"
      % (gap, page_delay, len(replayed), (max(replayed) - jump) if replayed else float("nan"), max(gaps, default=float("nan")),
         statistics.median(delays) if delays else float("nan"), max(delays, default=float("nan")), len(t2)))
