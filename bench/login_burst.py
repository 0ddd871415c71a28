#!/usr/bin/python3
"""A burst of logins against the real cardtable-console, and how long another page waits meanwhile. The
burst: ATTEMPTS wrong passwords for a login of ITERATIONS (the staff's 200,000 by default), each from its
own loopback address (127.0.0.2, ...: no address's limit is met), sent together. Meanwhile a director's
page asks /api/me every 20 ms on its own connection. Prints, never asserts: that page's answer time with
no burst and during it (median, p99, max), the burst's answers by status and how long they took.
  usage: bench/login_burst.py [BUILD_DIR] [--console BINARY] [--attempts 40] [--iterations 200000]
  (--console: another build's cardtable-console, e.g. the one before a change, against the same venue)"""
import argparse
import hashlib
import os
import statistics
import sys
import threading
import time
import http.client

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, f"{root}/tests/console")
from venue import Venue, send_login, answer


def probe(port, cookie, stop, out):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    while not stop.is_set():
        t = time.perf_counter()
        c.request("GET", "/api/me", headers={"Cookie": cookie})
        r = c.getresponse()
        r.read()
        out.append(time.perf_counter() - t)
        time.sleep(0.02)
    c.close()


def figures(name, xs):
    xs = sorted(xs)
    if not xs:
        return f"{name}: no samples"
    p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
    return f"{name}: {len(xs)} answers, median {statistics.median(xs) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {xs[-1] * 1000:.1f} ms"


def main():
    a = argparse.ArgumentParser()
    a.add_argument("build", nargs="?", default=f"{root}/build")
    a.add_argument("--console", help="the cardtable-console binary (default: the build's)")
    a.add_argument("--attempts", type=int, default=40)
    a.add_argument("--iterations", type=int, default=200000)
    args = a.parse_args()
    venue = Venue(args.build, root)
    try:
        salt = os.urandom(16)
        key = hashlib.pbkdf2_hmac("sha256", b"staff-secret", salt, args.iterations)
        with open(venue.logins, "a") as f:
            f.write(f"staff director pbkdf2-sha256${args.iterations}${salt.hex()}${key.hex()}\n")
        argv = venue.console_argv()
        if args.console:
            argv[0] = args.console
        venue.start_console(argv=argv)
        st, _, cookie = venue.login("td", "td-secret")
        assert st == 200, st
        t = time.perf_counter()
        hashlib.pbkdf2_hmac("sha256", b"x", salt, args.iterations)
        print(f"one PBKDF2-SHA256 of {args.iterations} iterations here (Python's hashlib): {(time.perf_counter() - t) * 1000:.0f} ms")

        quiet, stop = [], threading.Event()
        p = threading.Thread(target=probe, args=(venue.port, cookie, stop, quiet))
        p.start()
        time.sleep(2)
        stop.set()
        p.join()
        print(figures("a page, no logins", quiet))

        during, stop = [], threading.Event()
        p = threading.Thread(target=probe, args=(venue.port, cookie, stop, during))
        p.start()
        time.sleep(0.2)
        statuses, lock = {}, threading.Lock()

        def attempt(i):
            status, _ = answer(send_login(venue.port, "staff", f"guess-{i}", f"127.0.{i // 250}.{i % 250 + 2}", timeout=300))
            with lock:
                statuses[status] = statuses.get(status, 0) + 1

        t = time.perf_counter()
        burst = [threading.Thread(target=attempt, args=(i,)) for i in range(args.attempts)]
        for b in burst:
            b.start()
        for b in burst:
            b.join()
        took = time.perf_counter() - t
        stop.set()
        p.join()
        print(f"the burst: {args.attempts} logins answered in {took:.2f} s: " + ", ".join(f"{n} x {s}" for s, n in sorted(statuses.items())))
        print(figures("a page, during the burst", during))
    finally:
        venue.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
