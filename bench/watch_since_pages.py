#!/usr/bin/python3
"""How long `cardtablectl watch --since 1` takes to show a table's journal of EVENTS events, page by page.

The real cardtablectl; the table's control endpoint is played here (a ROUTER answering `status` as
cardtabled does and `replay` from a journal of EVENTS made-up events, PER_PAGE a page as cardtabled's
5,000, at once: what is timed is watch's side). Times each run from its start to the line of the journal's
last event, over RUNS runs, and counts the threads watch had while it replayed (each ZeroMQ context is an
I/O thread and a reaper). Measures; asserts nothing.

usage: watch_since_pages.py CARDTABLECTL [EVENTS [PER_PAGE [RUNS]]]   (defaults 50000, 5000, 5)
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

ctl_bin = sys.argv[1]
events = int(sys.argv[2]) if len(sys.argv) > 2 else 50000
per_page = int(sys.argv[3]) if len(sys.argv) > 3 else 5000
runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
tmp = tempfile.mkdtemp(prefix="watch-since-")
pub_ep, ctl_ep = ("ipc://%s/%s" % (tmp, n) for n in ("pub", "ctl"))
ctx = zmq.Context()
stop = threading.Event()
table = {"tournament": "default", "section": "A", "table": "1"}
journal = [json.dumps(dict(table, **{"class": "irregularity", "type": "irregularity.test", "severity": "info", "time": 1795433673.5 + s,
                                     "mono": 1.0, "seq": s, "board": 7,
                                     "message": "Board 7: event %d, a line about as long as a real one" % s}))
           for s in range(1, events + 1)]


def control():
    r = ctx.socket(zmq.ROUTER)
    r.bind(ctl_ep)
    while not stop.is_set():
        if not r.poll(50):
            continue
        *envelope, body = r.recv_multipart()
        q = json.loads(body)
        if q["command"] == "replay":
            since = q["since"]
            upto = min(events, since + per_page - 1)
            reply = '{"ok":true,"events":[%s],"more":%s,"first_available":1,"last_seq":%d}' % (
                ",".join(journal[since - 1:upto]), "true" if upto < events else "false", events)
        else:
            reply = json.dumps({"ok": True, "status": dict(table, phase="play", last_seq=events)})
        r.send_multipart(envelope + [reply.encode()])


threading.Thread(target=control, daemon=True).start()
pub = ctx.socket(zmq.PUB)
pub.bind(pub_ep)
took, threads = [], []
for _ in range(runs):
    start = time.monotonic()
    watch = subprocess.Popen([ctl_bin, "watch", "--json", "--since", "1", "-e", pub_ep, "-c", ctl_ep], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL)
    most = 0
    for n, line in enumerate(watch.stdout):
        if n % 2000 == 0:
            try:
                most = max(most, len(os.listdir("/proc/%d/task" % watch.pid)))
            except OSError:
                pass
        if json.loads(line).get("seq") == events:
            break
    took.append(time.monotonic() - start)
    threads.append(most)
    watch.terminate()
    watch.wait()
stop.set()
shutil.rmtree(tmp, True)
print("journal of %d events, %d a page (%d pages): watch --since 1 showed it in median %.3f s (min %.3f, max %.3f, %d runs); "
      "threads seen while it replayed: at most %d"
      % (events, per_page, (events + per_page - 1) // per_page, statistics.median(took), min(took), max(took), runs, max(threads)))
