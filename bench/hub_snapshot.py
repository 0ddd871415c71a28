#!/usr/bin/python3
"""The hub under a venue's load (issue 4's hub, hardened 2026-11-28): 200 tables x 500 kept events of
~400 B (a snapshot of about 39 MB); the time one snapshot takes, and how long an event takes to reach a
subscriber while 20 snapshots are queued (before: nothing was forwarded until every queued request was
answered).  usage: bench/hub_snapshot.py BUILD_DIR"""
import json, os, shutil, subprocess, sys, tempfile, time, zmq
hub, d = f"{sys.argv[1]}/tools/cardtable-hub/cardtable-hub", tempfile.mkdtemp(prefix="cardtable-hub-bench-")
ipc = lambda n: f"ipc://{d}/{n}"
p = subprocess.Popen([hub, "--upstream", ipc("up"), "--downstream", ipc("down"), "--control", ipc("ctl")], stderr=subprocess.DEVNULL)
try:
    ctx = zmq.Context()
    pub = ctx.socket(zmq.PUB); pub.sndhwm = 0; pub.connect(ipc("up"))
    sub = ctx.socket(zmq.SUB); sub.subscribe(b""); sub.rcvhwm = 0; sub.connect(ipc("down"))
    time.sleep(1)
    pad = "x" * 300
    n = 0
    for t in range(1, 201):
        for i in range(500):
            e = {"seq": i + 1, "class": "board", "type": "board.identified", "table": str(t), "message": pad}
            pub.send_multipart([f"board/v/A/{t}/board.identified".encode(), json.dumps(e).encode()])
            n += 1
    # drain until all forwarded
    got = 0
    sub.rcvtimeo = 5000
    while got < n:
        try:
            sub.recv_multipart(); got += 1
        except zmq.Again:
            break
    req = ctx.socket(zmq.DEALER); req.connect(ipc("ctl"))
    t0 = time.time(); req.send_multipart([b"", b'{"command":"snapshot"}']); r = req.recv_multipart(); one = time.time() - t0
    print(f"forwarded {got}/{n}; one snapshot: {one:.3f} s, {len(r[-1]) / 1e6:.1f} MB")
    for _ in range(20):
        req.send_multipart([b"", b'{"command":"snapshot"}'])
    time.sleep(0.05)
    t0 = time.time()
    pub.send_multipart([b"board/v/A/1/board.ping", json.dumps({"seq": 999, "class": "board", "type": "board.ping", "table": "1"}).encode()])
    sub.rcvtimeo = 120000
    while True:
        m = sub.recv_multipart()
        if m[0].endswith(b"board.ping"):
            break
    print(f"an event through the hub with 20 snapshots queued: {time.time() - t0:.3f} s")
    for _ in range(20):
        req.recv_multipart()
finally:
    p.terminate(); p.wait()
    shutil.rmtree(d, ignore_errors=True)
