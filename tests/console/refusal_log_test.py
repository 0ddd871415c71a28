#!/usr/bin/python3
"""A flood of refusals at the real console fills no log: each refusal a client can repeat in a loop is
logged once in 10 s, and the next line says how many were not ("(and N more WHAT in the last S s, not
logged one by one)"), through the one LogThrottle every such refusal uses. Two floods here:
- connections past --max-connections-per-address (503 at accept);
- logins past the queue of password checks (8 waiting or running: 503 "busy").
Each floods, its log holds one line; once the flood's ten seconds are over, the count of its unlogged ones
is said on a line of its own, named by what they were, though no refusal came after them (it waited for
the next refusal, and a flood's last window went unsaid for good); the next flood's first line carries no
count, each count being said once. A refusal counted when the console stops is said as it stops.
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

        # Nothing more from the flood: its count is said when its window is over, on a line of its own.
        connections_count = f"cardtable-console: {FLOOD - 1} more connections refused in the last "
        busy_count = f"cardtable-console: {refused_busy - 1} more logins refused as busy in the last "
        wait_for("the counts of the floods' last window", lambda: lines_with(venue, connections_count) and lines_with(venue, busy_count),
                 THROTTLE_S + 5)
        waited = time.monotonic() - flood_started
        assert waited >= THROTTLE_S - 0.5, f"a count said after {waited:.1f} s, before its window was over"
        print("\n".join(lines_with(venue, connections_count) + lines_with(venue, busy_count)))

        held = connection_flood(venue, "127.0.0.50")
        refused_busy = login_flood(venue, 3)
        wait_for("the second busy line", lambda: len(lines_with(venue, "logins are being checked already")) == 2, 5)
        connections, busy = lines_with(venue, "refused a connection"), lines_with(venue, "logins are being checked already")
        print("\n".join(connections + busy))
        assert len(connections) == 2 and "(and " not in connections[1], "each count is said once:\n" + "\n".join(connections)
        assert len(busy) == 2 and "(and " not in busy[1], "each count is said once:\n" + "\n".join(busy)
        for s in held:
            s.close()
        # Stopped inside the second flood's window: its counts are said as the console stops.
        venue.console.terminate()
        venue.console.wait(10)
        for what, count in [("connections refused", FLOOD - 1), ("logins refused as busy", refused_busy - 1)]:
            said = lines_with(venue, f" more {what} in the last ")
            assert len(said) == 2 and f"cardtable-console: {count} more {what} in the last " in said[1], \
                "the count of a window cut short by the stop:\n" + "\n".join(said)
    finally:
        venue.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
