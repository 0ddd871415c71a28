#!/usr/bin/python3
"""Nothing lost on the way to the console: the hub dies while a table goes on publishing (a board label
the director gives that the table rejects, the play, the Law 13D alert of a board returned one card short), so the
console's subscription misses those events; the hub comes back, the table's next heartbeat shows the
console a gap in its seq, and the console replays the missing events from the table's control endpoint.
A second table starts while the hub is down: the console first hears it with its alert already in the
past, and asks the table for its open alerts.
Real binaries throughout: cardtable-hub, cardtabled on a simulated table, cardtable-console.

  usage: gap_replay_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import signal
import sys
import time
import http.client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue, wait_for, get, first_message



def table_status(venue, t=1):
    out = venue.control(t, "status")
    return json.loads(out)["status"] if out.strip() else None


def main():
    build, source = sys.argv[1], sys.argv[2]
    sc = f"{source}/tests/scenarios"
    # Board 1, returned one card short at scenario time 40 (speed 2: 20 s after the start).
    # Table 2 starts only while the hub is down: the console first hears it with a history, an open alert in it.
    venue = Venue(build, source, tables=[(1, f"{sc}/play-count-after-play.scn", 2), (2, f"{sc}/play-count-after-play.scn", 2)])
    try:
        venue.start_console()
        venue.start_table(1)
        status, _, cookie = venue.login("td", "td-secret")
        assert status == 200
        tile = lambda: get(venue, cookie, "/api/table?table=default/A/1")[1].get("tile", {})
        wait_for("the console to see table 1's board", lambda: tile().get("board") == 1 and tile().get("last_seq", 0) >= 2, 20)
        seen_before = tile()["last_seq"]
        # The console joined the table's stream at some seq (the first events may precede the hub link):
        # from there on nothing may be missing.
        first_seen = min(e["seq"] for e in get(venue, cookie, "/api/table?table=default/A/1")[1]["timeline"] if e.get("seq"))
        # The hub dies (kill -9: nothing flushed, nothing said); the table publishes into the void.
        venue.hub.send_signal(signal.SIGKILL)
        venue.hub.wait()
        venue.control(1, "board", "Spring Pairs/1/99")  # rejected: a table.command_rejected event
        venue.start_table(2)
        st = wait_for("the table to journal the wrong_count alert while the hub is down",
                      lambda: (lambda s: s if s and s.get("open_alerts", 0) >= 1 else None)(table_status(venue)), 40)
        missed = st["last_seq"]
        wait_for("table 2's alert while the hub is down", lambda: (table_status(venue, 2) or {}).get("open_alerts", 0) >= 1, 40)
        assert tile()["last_seq"] == seen_before, "the console heard nothing while the hub was down"
        assert tile()["alerts"] == 0
        print(f"console saw up to seq {seen_before}; the table journalled up to {missed} while the hub was down")

        venue.start_hub("hub-restarted")
        t0 = time.time()
        detail = wait_for("the console to replay every missed event", lambda: (lambda d: d if {e.get("seq") for e in d["timeline"]} >=
                          set(range(first_seen, missed + 1)) else None)(get(venue, cookie, "/api/table?table=default/A/1")[1]), 20)
        print(f"gap closed {time.time() - t0:.1f} s after the hub's restart")
        types = {e["type"] for e in detail["timeline"] if e.get("seq", 0) > seen_before}
        for needed in ("table.command_rejected", "irregularity.wrong_count", "board.returned"):
            assert needed in types, f"{needed} replayed: {sorted(types)}"
        assert detail["tile"]["state"] == "alert" and detail["tile"]["alerts"] == 1, detail["tile"]
        # Table 2, first heard after the restart, with its alert already journalled: asked for its open alerts.
        wait_for("table 2's alert on the console", lambda: get(venue, cookie, "/api/table?table=default/A/2")[1].get("tile", {}).get("alerts") == 1, 20)
        snap = first_message(venue, cookie)
        assert sorted((a["table"], a["type"]) for a in snap["alerts"]) == [("1", "irregularity.wrong_count"), ("2", "irregularity.wrong_count")], snap["alerts"]
        # Replay is director-view only: the replayed events hold no hand either.
        assert "live." not in json.dumps(detail) and '"deal"' not in json.dumps(detail)
        log = open(f"{venue.dir}/console.log").read()
        assert "replay:" not in log, "the replay succeeded: " + log[-2000:]
        # A director's request with a seq that is no event: refused as the request's (400), never read as
        # 2^64-1 (seq=-1) or 1 (seq=1x); a refusal the table gives (no such event) is 409 with its reason,
        # not 502, which says the table did not answer.
        for bad in ["-1", "1x", "0", ""]:
            assert get(venue, cookie, f"/api/evidence?table=default/A/1&seq={bad}")[0] == 400, bad
        c = http.client.HTTPConnection("127.0.0.1", venue.port, timeout=10)
        c.request("POST", "/api/ack", json.dumps({"table": "default/A/1", "seq": 0}),
                  {"Cookie": cookie, "Content-Type": "application/json", "X-Cardtable": "1"})
        assert c.getresponse().status == 400
        st, body = get(venue, cookie, "/api/evidence?table=default/A/1&seq=999999")
        assert st == 409 and "999999" in body.get("error", ""), (st, body)
        assert venue.console.poll() is None
        return 0
    finally:
        venue.close()


if __name__ == "__main__":
    sys.exit(main())
