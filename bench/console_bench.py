#!/usr/bin/python3
"""The console under a full venue: 200 simulated tables at 20 events a second each (4,000 a second)
published into a real cardtable-hub, through the real cardtable-console, to one headless chromium with the
director's page open. Prints, never asserts: publish -> visible in the page (median, p99), the gateway's
CPU and RSS, the browser's CPU.
  usage: bench/console_bench.py [BUILD_DIR] [--tables 200] [--rate 20] [--seconds 30]"""
import argparse
import os
import statistics
import sys
import tempfile
import threading
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, f"{root}/tests/console")
from venue import Venue, event, publisher
from browser_test import browser, log_in, wait_for

TYPES = [("board.arrived", "info"), ("auction.period_started", "info"), ("auction.period_ended", "info"),
         ("reading.uncertain", "warning"), ("reading.resumed", "info"), ("board.returned", "info")]


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pids_with(text):
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                if text in open(f"/proc/{p}/cmdline").read():
                    out.append(int(p))
            except OSError:
                pass
    return out


def main():
    a = argparse.ArgumentParser()
    a.add_argument("build", nargs="?", default=f"{root}/build")
    a.add_argument("--tables", type=int, default=200)
    a.add_argument("--rate", type=float, default=20)
    a.add_argument("--seconds", type=float, default=30)
    args = a.parse_args()
    # Hub 1.1 binds each table key to its one table: a key, and a PUB socket, per simulated table.
    venue = Venue(args.build, root, publishers=[(f"bench{t}", t) for t in range(1, args.tables + 1)],
                  console_args=["--lost-after", "3600"])
    profile = tempfile.mkdtemp(prefix="cardtable-bench-chromium-")
    driver = None
    try:
        venue.start_console()
        import zmq
        shared = zmq.Context(io_threads=4)  # 200 CURVE connections: more than one I/O thread encrypting
        pubs = {t: publisher(venue, f"bench{t}", shared) for t in range(1, args.tables + 1)}
        # Every table says hello first, so the page holds the whole venue before the clock starts; again
        # until the page has every tile (a PUB drops what it sends before its CURVE handshake is done).
        def hello():
            for t in range(1, args.tables + 1):
                pubs[t][1].send_multipart([s.encode() for s in event(t, 1, "board.arrived", message=f"Board 1 is on table {t}")])
        time.sleep(2)
        hello()
        driver = browser(profile)
        log_in(driver, venue.url, "td", "td-secret", timeout=20)
        wait_for(f"{args.tables} tiles", lambda: len(driver.find_elements("css selector", "#grid .tile")) >= args.tables or time.sleep(1) or hello(), 60)
        driver.execute_script("window.cardtableStats.latencies = []")
        browser_pids = pids_with(profile)
        gw0, br0 = cpu_seconds(venue.console.pid), sum(cpu_seconds(p) for p in browser_pids)
        hub0 = cpu_seconds(venue.hub.pid)
        start = time.time()
        total = int(args.tables * args.rate * args.seconds)
        interval = 1 / (args.tables * args.rate)
        seq = {t: 1 for t in range(1, args.tables + 1)}
        sent = 0
        while sent < total:
            # Paced in small batches: 4,000 a second is a batch of 40 every 10 ms.
            due = int((time.time() - start) / interval) + 1
            while sent < min(due, total):
                t = 1 + sent % args.tables
                seq[t] += 1
                kind, sev = TYPES[(sent // args.tables) % len(TYPES)]
                if sent % 4000 == 17:
                    kind, sev = "irregularity.wrong_count", "alert"
                pubs[t][1].send_multipart([s.encode() for s in event(t, seq[t], kind, sev, f"{kind} at table {t}", board=1 + seq[t] // 6)])
                sent += 1
            time.sleep(0.005)
        wall = time.time() - start
        time.sleep(1.5)
        gw1, br1 = cpu_seconds(venue.console.pid), sum(cpu_seconds(p) for p in browser_pids if os.path.exists(f"/proc/{p}"))
        hub1 = cpu_seconds(venue.hub.pid)
        os.makedirs(f"{args.build}/console-artifacts", exist_ok=True)
        driver.save_screenshot(f"{args.build}/console-artifacts/bench-grid-{args.tables}.png")
        lat = sorted(driver.execute_script("return window.cardtableStats.latencies"))
        rss = venue.rss_kb()
        p = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000
        print(f"{args.tables} tables x {args.rate:g} events/s for {wall:.1f} s: {sent} events published ({sent / wall:.0f}/s)")
        print(f"seen in the page: {len(lat)} ({100 * len(lat) / sent:.1f} %)")
        if lat:
            print(f"publish -> visible: median {statistics.median(lat) * 1000:.1f} ms, p99 {p(0.99):.1f} ms, max {lat[-1] * 1000:.1f} ms")
        print(f"gateway: CPU {100 * (gw1 - gw0) / wall:.1f} % of a core, RSS {rss / 1024:.1f} MiB")
        print(f"hub: CPU {100 * (hub1 - hub0) / wall:.1f} % of a core")
        print(f"browser (all chromium processes): CPU {100 * (br1 - br0) / wall:.1f} % of a core")
        for _, pub in pubs.values():
            pub.close()
        shared.term()
        return 0
    finally:
        if driver:
            driver.quit()
        venue.close()


if __name__ == "__main__":
    sys.exit(main())
