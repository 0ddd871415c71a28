#!/usr/bin/python3
"""Events a console knows it missed and cannot fetch are said, not dropped without a word.

  usage: gap_unrecoverable_test.py BUILD_DIR SOURCE_DIR

A table the hub forwards but the console has no `--table ... control=` for (added to the venue after the
console's config was written) cannot be asked to replay. Its seq jumps 1 -> 5 (the hub restarted: 2 to 4,
perhaps an alert among them, went by), then a heartbeat says it is at 7. The console said nothing, in its
log or on the page: the director could not know an alert might be missing. Now the log names the table
and the seqs (once each), and the tile counts the events missed."""
import json
import os
import sys
import time
import http.client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue, event, publisher, wait_for
from gap_replay_test import first_message


def main():
    build, source = sys.argv[1], sys.argv[2]
    venue = Venue(build, source, tables=[], publishers=[("table9", 9)])
    ctx = pub = None
    try:
        venue.start_console()
        _, _, td = venue.login("td", "td-secret")
        ctx, pub = publisher(venue, "table9")
        time.sleep(1)  # the hub's subscription to the publisher
        heartbeat = lambda last: event(9, None, "daemon.heartbeat", evidence={"last_seq": str(last), "phase": "play"})
        messages = [event(9, 1, "board.arrived"), event(9, 5, "board.trick", evidence={"tricks": "1"})] + [heartbeat(7)] * 3
        for topic, body in messages:
            if '"seq": null' in body:
                body = json.dumps({k: v for k, v in json.loads(body).items() if k != "seq"})
            pub.send_multipart([topic.encode(), body.encode()])
            time.sleep(0.3)
        tile = wait_for("table 9's tile counting the events missed", lambda: next(
            (t for t in first_message(venue, td)["tables"] if t["id"] == "default/A/9" and t.get("missed") == 5), None), 5)
        print("tile:", tile)
        log = open(f"{venue.dir}/console.log").read()
        print("log:", log)
        assert "default/A/9" in log and "2 to 4" in log and "6 to 7" in log, "the log names the table and the seqs missed"
        assert log.count("6 to 7") == 1, "said once, not at every heartbeat"
        return 0
    finally:
        if pub:
            pub.close()
            ctx.term()
        venue.close()


if __name__ == "__main__":
    sys.exit(main())
