#!/usr/bin/python3
"""The broadcaster's hands, each board once and none missing: a console started after a board was released
shows it (the start's catch-up asked the table's live endpoint, a PUB that answers nothing, and showed no
board at all); a table restarted on the same state folder plays the board again, and the console shows the
newest play, 52 cards, not both plays merged (104). The catch-up comes from the table's control endpoint
with the console's broadcaster key, and the live seq keeps each event to one application.
Real binaries throughout: cardtable-hub, cardtabled on a simulated table, cardtable-console.

  usage: live_catch_up_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import signal
import sys
import time
import http.client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue, wait_for



def live_snapshot(venue, cookie):
    """The boards a broadcaster's page opening the live stream now would get."""
    c = http.client.HTTPConnection("127.0.0.1", venue.port, timeout=10)
    c.request("GET", "/api/live-stream", headers={"Cookie": cookie, "Accept": "text/event-stream"})
    r = c.getresponse()
    assert r.status == 200, r.status
    text = b""
    while b"\n\n" not in text:
        text += r.read1(65536)
    c.close()
    return json.loads(text.split(b"data: ", 1)[1].split(b"\n", 1)[0])


def boards_of(snapshot):
    boards = snapshot.get("boards", snapshot) if isinstance(snapshot, dict) else snapshot
    return list(boards.values()) if isinstance(boards, dict) else list(boards)


def released(venue, t=1):
    out = venue.control(t, "status")
    s = json.loads(out)["status"] if out.strip() else {}
    return s.get("live_last_seq", 0) > 0 and s.get("boards_under_embargo", 1) == 0 and s


def main():
    build, source = sys.argv[1], sys.argv[2]
    sc = f"{source}/tests/scenarios"
    venue = Venue(build, source, tables=[(1, f"{sc}/play-clean-board.scn", 8)])
    try:
        table = venue.start_table(1)
        first = wait_for("board 1 released", lambda: released(venue), 60)
        venue.start_console()
        st, _, cookie = venue.login("vugraph", "vu-secret")
        assert st == 200

        def board_with_cards(n):
            boards = [b for b in boards_of(live_snapshot(venue, cookie)) if isinstance(b, dict) and b.get("deal")]
            return boards if boards and all(len(b.get("cards", [])) == n for b in boards) else None

        boards = wait_for("the released board, caught up at the console's start", lambda: board_with_cards(52), 20)
        assert len(boards) == 1, boards
        seqs = [c["seq"] for c in boards[0]["cards"]]
        assert seqs == sorted(set(seqs)), f"each card once, in play order: {seqs}"

        # The table restarts on its state folder and plays board 1 again: the newest play, once.
        table.send_signal(signal.SIGTERM)
        table.wait(timeout=10)
        venue.start_table(1)
        wait_for("board 1 released again", lambda: (s := released(venue)) and s["live_last_seq"] > first["live_last_seq"] and s, 60)
        boards = wait_for("the newest play", lambda: (b := board_with_cards(52)) and min(c["seq"] for c in b[0]["cards"]) > first["live_last_seq"] and b, 20)
        assert len(boards) == 1 and len(boards[0]["cards"]) == 52, [len(b.get("cards", [])) for b in boards]
        print(f"live catch-up: board 1 shown at the console's start; after the table's restart its newest play, "
              f"52 cards (live seq {first['live_last_seq']} -> {released(venue)['live_last_seq']})")
    finally:
        venue.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
