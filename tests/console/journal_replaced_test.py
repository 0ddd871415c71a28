#!/usr/bin/python3
"""A table whose journal starts again must not hide its new alerts. Two tables each journal a Law 13D
alert (a board returned one card short); the director acknowledges table 1's, table 2's stays open. A
normal restart of table 2 (same state folder) changes nothing for the subscribers. Then both daemons are
stopped and started again on EMPTY state folders (a spare computer at the table): their new journals
number events from 1 again, and the same scenario gives the new alert the seq the old one had. The
console, the hub and `cardtablectl watch` must see the new journals' alerts (the hub once took table 1's
for the acknowledged old one; watch took every new event for one already shown); the console shows table
2's old alert as the replaced journal's and refuses to acknowledge it, and the new one is acknowledged at
the table, by the console and by `cardtablectl ack --journal`. Real binaries throughout: cardtabled on simulated tables, cardtable-hub, cardtable-console,
cardtablectl.

  usage: journal_replaced_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import signal
import subprocess
import sys
import http.client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue, wait_for, get, first_message


def post(venue, cookie, path, body):
    c = http.client.HTTPConnection("127.0.0.1", venue.port, timeout=10)
    c.request("POST", path, json.dumps(body), {"Cookie": cookie, "Content-Type": "application/json", "X-Cardtable": "1"})
    r = c.getresponse()
    return r.status, json.loads(r.read() or b"{}")


def status(venue, t):
    out = venue.control(t, "status")
    return json.loads(out)["status"] if out.strip() else None


def hub_alerts(venue):
    out = subprocess.run([venue.ctl, "alerts", "--control", venue.ipc("hubctl"), "--key", f"{venue.keys}/console-director.key",
                          "--server-key", f"{venue.keys}/hub.pub", "--json"], capture_output=True, text=True).stdout
    return json.loads(out) if out.strip() else {}


def alerts_of(snapshot, table):
    return [a for a in snapshot["alerts"] if a["table"] == str(table)]


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=10)


def main():
    build, source = sys.argv[1], sys.argv[2]
    sc = f"{source}/tests/scenarios"
    # Board 1, returned one card short at scenario time 40 (speed 2: 20 s after the start).
    venue = Venue(build, source, tables=[(1, f"{sc}/play-count-after-play.scn", 2), (2, f"{sc}/play-count-after-play.scn", 2)])
    watch = None
    try:
        venue.start_console()
        # watch through the hub, as a director's terminal follows the venue (no replay there: a hub keeps no journal).
        watch_out = open(f"{venue.dir}/watch.out", "w")
        watch = subprocess.Popen([venue.ctl, "watch", "--json", "--endpoint", venue.ipc("down"), "--control", venue.ipc("hubctl"),
                                  "--key", f"{venue.keys}/console-director.key", "--server-key", f"{venue.keys}/hub.pub"],
                                 stdout=watch_out, stderr=open(f"{venue.dir}/watch.log", "w"), text=True)
        tables = {t: venue.start_table(t) for t in (1, 2)}
        status_code, _, cookie = venue.login("td", "td-secret")
        assert status_code == 200
        tile = lambda t: get(venue, cookie, f"/api/table?table=default/A/{t}")[1].get("tile", {})
        for t in (1, 2):
            wait_for(f"table {t}'s Law 13D alert on the console", lambda: tile(t).get("alerts") == 1, 60)
        old = {t: status(venue, t) for t in (1, 2)}
        for t in (1, 2):
            assert len(old[t]["journal"]) == 16, old[t]
        assert old[1]["journal"] != old[2]["journal"]
        snap = first_message(venue, cookie)
        old_alert = {t: alerts_of(snap, t)[0] for t in (1, 2)}
        assert old_alert[1]["journal"] == old[1]["journal"], old_alert[1]
        # Table 1's alert acknowledged (the daemon checks the journal named).
        st, body = post(venue, cookie, "/api/ack", {"table": "default/A/1", "seq": old_alert[1]["seq"], "journal": old_alert[1]["journal"]})
        assert st == 200, (st, body)
        wait_for("table 1's ack on the console", lambda: tile(1).get("alerts") == 0, 20)
        wait_for("table 1's ack at the hub", lambda: hub_alerts(venue).get("tables", {}).get("default/A/1", {}).get("open") == 0, 20)

        # A normal restart: the same state folder, the same journal; nothing starts again anywhere.
        stop(tables[2])
        tables[2] = venue.start_table(2)
        back = wait_for("table 2 back", lambda: (lambda s: s if s and s.get("last_seq", 0) > old[2]["last_seq"] else None)(status(venue, 2)), 20)
        assert back["journal"] == old[2]["journal"], "a restart on the same state folder keeps the journal"
        # The console has followed the restarted daemon up to an event it published after the restart: every
        # event (and the heartbeat that shows a gap) has its journal checked before it counts, so a restart
        # taken for a new journal has been said and done by then. Waiting a fixed time proved nothing.
        wait_for("the console to follow the restarted table past the restart",
                 lambda: tile(2).get("last_seq", 0) >= back["last_seq"] and tile(2).get("journal") == old[2]["journal"], 20)
        snap = first_message(venue, cookie)
        kept = [a for a in alerts_of(snap, 2) if a["seq"] == old_alert[2]["seq"]]
        assert kept and not kept[0].get("replaced"), alerts_of(snap, 2)
        assert "journal was replaced" not in open(f"{venue.dir}/console.log").read()

        # The state folders lost: both tables start again with empty ones, seq 1 and a new identity.
        for t in (1, 2):
            stop(tables[t])
            tables[t] = venue.start_table(t, state=f"{venue.dir}/state{t}-spare")
        new = {t: wait_for(f"table {t}'s new journal", lambda: (lambda s: s if s and s["journal"] != old[t]["journal"] else None)(status(venue, t)), 20)
               for t in (1, 2)}
        for t in (1, 2):
            wait_for(f"table {t}'s new journal's alert at the table", lambda: (status(venue, t) or {}).get("open_alerts") == 1, 60)
        new_alert = {t: json.loads(venue.control(t, "alerts"))["alerts"][0] for t in (1, 2)}
        print("old alerts at seq", {t: old_alert[t]["seq"] for t in (1, 2)}, "new at", {t: new_alert[t]["seq"] for t in (1, 2)})

        # The console: each table's new alert open; table 2's old one shown as its replaced journal's.
        def console_alerts():
            snap = first_message(venue, cookie)
            ok = all(any(a["seq"] == new_alert[t]["seq"] and a.get("journal") == new[t]["journal"] and not a.get("replaced")
                         for a in alerts_of(snap, t)) for t in (1, 2))
            return snap if ok else None
        snap = wait_for("the new journals' alerts on the console", console_alerts, 20)
        replaced = [a for a in alerts_of(snap, 2) if a.get("replaced")]
        assert len(replaced) == 1 and replaced[0]["seq"] == old_alert[2]["seq"] and replaced[0]["journal"] == old[2]["journal"], alerts_of(snap, 2)
        assert not [a for a in alerts_of(snap, 1) if a.get("replaced")], "table 1's old alert was acknowledged: nothing replaced"
        log = open(f"{venue.dir}/console.log").read()
        assert "journal was replaced" in log, log[-2000:]
        wait_for("the console's seqs of table 2 to follow the new journal",
                 lambda: tile(2).get("journal") == new[2]["journal"] and tile(2).get("last_seq") <= status(venue, 2)["last_seq"], 20)

        # The hub: table 1's new alert is open although the old journal's alert of the same seq was acknowledged.
        wait_for("the hub to list table 1's new alert",
                 lambda: any(a.get("table") == "1" and a.get("journal") == new[1]["journal"] for a in hub_alerts(venue).get("alerts", [])), 20)
        hub = hub_alerts(venue)
        assert hub["tables"]["default/A/2"].get("replaced"), hub["tables"]["default/A/2"]
        assert "journal was replaced" in open(f"{venue.dir}/hub.log").read()

        # watch: the new journals' events shown, though their seqs were shown already under the old ones.
        # Awaited before watch is stopped: it is a third subscriber, and that the hub and the console have
        # an event says nothing of whether watch has read it yet. Stopped, it prints nothing more: stopped at
        # once (0.1-0.5 s after the hub forwarded the alerts), a watch starved of the CPU that long lost them
        # (shown with watch paused until 1 s later; likely CI's one failure, 0.3 s before a run's usual end).
        def watch_shows_new_alert(t):
            lines = open(f"{venue.dir}/watch.out").read().split("\n")[:-1]  # whole lines: watch may be writing one
            return any(e.get("table") == str(t) and e.get("type") == "irregularity.wrong_count" and e.get("journal") == new[t]["journal"]
                       for e in map(json.loads, filter(None, lines)))
        for t in (1, 2):
            wait_for(f"watch to show table {t}'s new alert", lambda: watch_shows_new_alert(t), 20)
        stop(watch)
        assert "journal was replaced" in open(f"{venue.dir}/watch.log").read()
        # The old alert cannot be acknowledged (its seq is another event at the table now); the new one can.
        st, body = post(venue, cookie, "/api/ack", {"table": "default/A/2", "seq": old_alert[2]["seq"], "journal": old[2]["journal"]})
        assert st == 409 and "replaced" in body.get("error", ""), (st, body)
        st, body = post(venue, cookie, "/api/ack", {"table": "default/A/2", "seq": new_alert[2]["seq"]})
        assert st == 409, ("the journal must be named once it was replaced", st, body)
        st, body = post(venue, cookie, "/api/ack", {"table": "default/A/2", "seq": new_alert[2]["seq"], "journal": new[2]["journal"]})
        assert st == 200, (st, body)
        wait_for("table 2's new alert acknowledged", lambda: (status(venue, 2) or {}).get("open_alerts") == 0, 20)
        wait_for("the console to close it", lambda: not [a for a in alerts_of(first_message(venue, cookie), 2) if not a.get("replaced")], 20)

        # cardtablectl names the journal too: an ack of the old journal is refused at the table (its seq is
        # another event there now); of the table's own, it acknowledges.
        refused = json.loads(venue.control(1, "ack", str(new_alert[1]["seq"]), "--journal", old[1]["journal"]) or "{}")
        assert refused.get("ok") is False and "cannot be acknowledged here" in refused.get("error", ""), refused
        assert (status(venue, 1) or {}).get("open_alerts") == 1, "the refused ack closed nothing"
        done = json.loads(venue.control(1, "ack", str(new_alert[1]["seq"]), "--journal", new[1]["journal"], "--by", "td") or "{}")
        assert done.get("ok") is True, done
        wait_for("table 1's new alert acknowledged by cardtablectl", lambda: (status(venue, 1) or {}).get("open_alerts") == 0, 20)

        assert venue.console.poll() is None and venue.hub.poll() is None
        return 0
    finally:
        if watch and watch.poll() is None:
            watch.kill()
            watch.wait()
        venue.close()


if __name__ == "__main__":
    sys.exit(main())
