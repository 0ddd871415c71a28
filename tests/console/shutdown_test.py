#!/usr/bin/python3
"""Stopping the real console (SIGTERM, as `systemctl stop` sends it) while it waits on a table or the hub
that does not answer. Each control request waits up to its 3 s timeout: SIGTERM waited for the catch-up
thread's (the hub's snapshot, then each table's open alerts, one after the other: 12 s with three silent
tables) and for the acknowledgements in flight. Now the requests in flight end at once and the console
exits promptly; an acknowledgement a director sent that the table has not confirmed is not dropped
without a word: the log names it (table, event, who) as not confirmed.
  usage: shutdown_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import signal
import sys
import threading
import time
import http.client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue, wait_for
from stand_in import SilentPeer, console_with

PROMPT_S = 0.5  # from SIGTERM to exit


def stop_and_time(venue):
    """SIGTERM to the console: (seconds to its exit, its exit status, its log)."""
    asked = time.monotonic()
    venue.console.send_signal(signal.SIGTERM)
    try:
        code = venue.console.wait(timeout=30)
    except Exception:
        raise AssertionError("the console did not stop within 30 s of SIGTERM")
    return time.monotonic() - asked, code, open(f"{venue.dir}/console.log").read()


def catch_up_busy(build, source, ctx):
    """The hub's control and three tables silent: the catch-up thread waits on the hub's snapshot."""
    venue = Venue(build, source, hub=False)
    peers = []
    try:
        hub = SilentPeer(ctx, venue.ipc("hubctl"))
        tables = {t: SilentPeer(ctx, venue.ipc(f"ctl{t}")) for t in (1, 2, 3)}
        peers = [hub, *tables.values()]
        for p in peers:
            p.start()
        console_with(venue, {t: venue.ipc(f"ctl{t}") for t in tables}, hub_control=venue.ipc("hubctl"))
        wait_for("the console's snapshot request at the hub", lambda: "snapshot" in hub.commands(), 10)
        took, code, log = stop_and_time(venue)
        print(f"SIGTERM to exit with the catch-up waiting on a silent hub and 3 silent tables: {took:.2f} s")
        assert code == 0, f"exit status {code}: {log}"
        assert "cardtable-console: stopping" in log
        assert took < PROMPT_S, f"{took:.2f} s from SIGTERM to exit: the catch-up's requests were waited for"
    finally:
        for p in peers:
            p.stop.set()
        venue.close()


def ack_in_flight(build, source, ctx):
    """A director's acknowledgement sent to a table that takes it and never answers."""
    venue = Venue(build, source, hub=False)
    table = None
    try:
        # It answers the console's catch-up (no open alerts, no released hands), not the ack.
        table = SilentPeer(ctx, venue.ipc("ctl1"), {"alerts": {"ok": True, "alerts": []}, "replay-live": {"ok": True, "events": []}})
        table.start()
        console_with(venue, {1: venue.ipc("ctl1")})
        status, _, cookie = venue.login("td", "td-secret")
        assert status == 200, status

        def acknowledge():
            c = http.client.HTTPConnection("127.0.0.1", venue.port, timeout=30)
            try:
                c.request("POST", "/api/ack", json.dumps({"table": "default/A/1", "seq": 7}),
                          {"Content-Type": "application/json", "X-Cardtable": "1", "Cookie": cookie})
                c.getresponse().read()
            except (OSError, http.client.HTTPException):
                pass  # the console stopped before answering: the log says what became of it
        threading.Thread(target=acknowledge, daemon=True).start()
        wait_for("the ack at the table", lambda: "ack" in table.commands(), 10)
        took, code, log = stop_and_time(venue)
        print(f"SIGTERM to exit with an ack in flight to a table that does not answer: {took:.2f} s")
        assert code == 0, f"exit status {code}: {log}"
        assert took < PROMPT_S, f"{took:.2f} s from SIGTERM to exit: the ack in flight was waited for"
        lines = [l for l in log.splitlines() if "not confirmed" in l]
        assert len(lines) == 1 and "default/A/1" in lines[0] and "event 7" in lines[0] and "td" in lines[0], \
            "the ack the table did not confirm is not named in the log:\n" + log
        print("logged:", lines[0])
    finally:
        if table:
            table.stop.set()
        venue.close()


def main():
    build, source = sys.argv[1], sys.argv[2]
    import zmq
    ctx = zmq.Context()
    catch_up_busy(build, source, ctx)
    ack_in_flight(build, source, ctx)
    return 0


if __name__ == "__main__":
    sys.exit(main())
