#!/usr/bin/python3
"""A flood of refusals at the real console fills no log: each refusal a client can repeat in a loop is
logged once in 10 s, and the next line says how many were not ("(and N more WHAT in the last S s, not
logged one by one)"), through the one LogThrottle every such refusal uses. Two floods here:
- connections past --max-connections-per-address (503 at accept);
- logins past the queue of password checks (8 waiting or running: 503 "busy").
Each floods, its log holds one line; ten seconds on, one more refusal logs its line with the count of the
flood's unlogged ones, named by what they were.
  usage: refusal_log_test.py BUILD_DIR SOURCE_DIR"""
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue, wait_for, send_login, answer
from login_queue_test import SLOW, MOST_PENDING

PER_ADDRESS = 4
FLOOD = 20
THROTTLE_S = 10  # LogThrottle::kEvery


def lines_with(venue, text):
    return [l for l in open(f"{venue.dir}/console.log").read().splitlines() if text in l]


def connection_flood(venue, source):
    """PER_ADDRESS connections held from one address, then FLOOD more from it, each refused."""
    held = []
    for _ in range(PER_ADDRESS):
        s = socket.create_connection(("127.0.0.1", venue.port), timeout=10, source_address=(source, 0))
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert s.recv(12).startswith(b"HTTP/1.1 200"), "a connection within the limit is served"
        held.append(s)
    refused = 0
    for _ in range(FLOOD):
        s = socket.create_connection(("127.0.0.1", venue.port), timeout=10, source_address=(source, 0))
        refused += s.recv(4096).startswith(b"HTTP/1.1 503")
        s.close()
    assert refused == FLOOD, f"{refused} of {FLOOD} connections past the limit refused"
    return held


def login_flood(venue, first_address):
    """MOST_PENDING slow logins fill the queue; FLOOD more are refused as busy (each from its own address,
    so no per-address limit answers instead)."""
    addresses = (f"127.0.{first_address + i // 200}.{i % 200 + 2}" for i in range(MOST_PENDING + FLOOD))
    sent = [send_login(venue.port, "slow", f"guess-{i}", a) for i, a in enumerate(addresses)]
    statuses = [answer(c)[0] for c in sent]
    assert statuses.count(503) >= FLOOD, statuses
    return statuses.count(503)


def main():
    build, source = sys.argv[1], sys.argv[2]
    venue = Venue(build, source, console_args=["--max-connections-per-address", str(PER_ADDRESS)])
    try:
        with open(venue.logins, "a") as f:
            f.write(f"slow director {SLOW['slow']}\n")
        venue.start_console()
        flood_started = time.monotonic()
        held = connection_flood(venue, "127.0.0.50")
        refused_busy = login_flood(venue, 1)
        wait_for("the busy line", lambda: lines_with(venue, "logins are being checked already"), 5)
        connections, busy = lines_with(venue, "refused a connection"), lines_with(venue, "logins are being checked already")
        assert len(connections) == 1 and len(busy) == 1, "a flood is logged once:\n" + "\n".join(connections + busy)
        for s in held:
            s.close()  # the console has seen them go long before the next flood

        time.sleep(max(0.0, THROTTLE_S + 0.5 - (time.monotonic() - flood_started)))
        held = connection_flood(venue, "127.0.0.50")
        login_flood(venue, 3)
        wait_for("the second busy line", lambda: len(lines_with(venue, "logins are being checked already")) == 2, 5)
        connections, busy = lines_with(venue, "refused a connection"), lines_with(venue, "logins are being checked already")
        print("\n".join(connections + busy))
        assert len(connections) == 2 and f"(and {FLOOD - 1} more connections refused in the last " in connections[1], \
            "the second line counts the flood's unlogged refusals:\n" + "\n".join(connections)
        assert len(busy) == 2 and f"(and {refused_busy - 1} more logins refused so in the last " in busy[1], \
            "the second busy line counts the unlogged ones:\n" + "\n".join(busy)
        for s in held:
            s.close()
    finally:
        venue.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
