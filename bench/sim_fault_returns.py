#!/usr/bin/env python3
"""Heavy reader faults must not make the table invent events: each seed plays a simulated session with
--sim-faults flicker=F,drop=D,seed=S and its journal is compared with a fault-free run of the same session.

A session is counted false when a board goes back more than once (a second board.returned for one board,
a false auction.period_started/auction.period_ended between boards) or when an irregularity.* event appears
that the fault-free run does not have. reading.uncertain (flicker seen) is the faults' honest report and
is not counted. A board that never goes back (fewer events than the fault-free run) is counted too.

    bench/sim_fault_returns.py [--build build] [--seeds 100] [--flicker 0.1] [--drop 0.1] [--speed 200] [--jobs 2]

Every daemon binds ipc sockets in its own temporary folder (no tcp port). The scenario's clock drives the
table (--speed other than 1), so the journal does not depend on --speed; a high speed only saves time.
"""
import argparse
import collections
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SESSION_SECONDS = 8 * 80  # Spring Pairs/1: 8 boards of 80 s (devices/sim/session_script.cpp)
LAST_BOARD = 8


def journal(d):
    events = []
    for path in sorted(glob.glob(f"{d}/state/journal/journal-*.jsonl")):
        with open(path) as f:
            for line in f:
                try:
                    events.append(json.loads(line))
                except json.JSONDecodeError:
                    pass  # a line being written
    return events


def run_session(build, faults, speed):
    """The session's journal events, in order. The session is over once the last board has gone back and
    the journal has been quiet for a second (the daemon lags the script when the machine is busy: a fixed
    sleep cut sessions short); a session that never returns its last board ends after 20 times its length (a busy machine: 4 times
    was not enough on a shared 2-core machine), and a missing event is reported as such, not as a false one."""
    d = tempfile.mkdtemp(prefix="cardtable-faults-")
    ipc = lambda name: f"ipc://{d}/{name}"
    cmd = [f"{build}/daemon/cardtabled", "--plaintext", "--state-dir", f"{d}/state", "--publish", "bind:" + ipc("pub"),
           "--control", "bind:" + ipc("ctl"), "--live", "bind:" + ipc("live"),
           "--master", f"{SRC}/tests/scenarios/master/spring-pairs.pbn", "--simulate-session", "Spring Pairs/1",
           "--speed", str(speed)]
    if faults:
        cmd += ["--sim-faults", faults]
    try:
        with open(f"{d}/daemon.log", "w") as log:
            p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + 20 * SESSION_SECONDS / speed + 10
        seen, quiet_since = 0, time.time()
        while time.time() < deadline:
            time.sleep(0.2)
            events = journal(d)
            if len(events) != seen:
                seen, quiet_since = len(events), time.time()
            last_back = any(e.get("type") == "board.returned" and e.get("board") == LAST_BOARD for e in events)
            if last_back and time.time() - quiet_since >= 1.0:
                break
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        return journal(d)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def board_of(e):
    b = e.get("board")
    return b if b is not None else (e.get("payload") or {}).get("board")


def summary(events):
    """What a fault-free run must agree with: board returns, auctions and irregularities per board."""
    kinds = ("board.returned", "auction.period_started", "auction.period_ended")
    counted = collections.Counter()
    irregular = collections.Counter()
    for e in events:
        t = e.get("type", "")
        if t in kinds:
            counted[(t, str(board_of(e)))] += 1
        elif t.startswith("irregularity."):
            irregular[(t, str(board_of(e)))] += 1
    return counted, irregular


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(SRC, "build"))
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--flicker", type=float, default=0.1)
    ap.add_argument("--drop", type=float, default=0.1)
    ap.add_argument("--speed", type=float, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()

    t0 = time.time()
    clean_counts, clean_irregular = summary(run_session(a.build, "", a.speed))
    returns = sum(n for (t, _), n in clean_counts.items() if t == "board.returned")
    if returns == 0:
        sys.exit("the fault-free run returned no board: is the daemon built? (" + a.build + ")")
    seeds = range(a.first_seed, a.first_seed + a.seeds)

    def one(seed):
        counts, irregular = summary(run_session(a.build, f"flicker={a.flicker},drop={a.drop},seed={seed}", a.speed))
        extra = [f"{t} board {b} x{n - clean_counts.get((t, b), 0)}" for (t, b), n in sorted(counts.items()) if n > clean_counts.get((t, b), 0)]
        extra += [f"{t} board {b} x{n - clean_irregular.get((t, b), 0)}" for (t, b), n in sorted(irregular.items())
                  if n > clean_irregular.get((t, b), 0)]
        extra += [f"{t} board {b} missing" for (t, b), n in sorted(clean_counts.items()) if counts.get((t, b), 0) < n]
        return seed, extra

    bad = []
    with ThreadPoolExecutor(a.jobs) as pool:
        for seed, extra in pool.map(one, seeds):
            if extra:
                bad.append(seed)
                print(f"seed {seed}: " + "; ".join(extra), flush=True)
    print(f"flicker={a.flicker} drop={a.drop}: {len(bad)} of {a.seeds} sessions with false events"
          f" ({100.0 * len(bad) / a.seeds:.1f} %), seeds {bad}; {returns} boards returned in the fault-free run;"
          f" {time.time() - t0:.0f} s at --speed {a.speed:g}")


if __name__ == "__main__":
    main()
