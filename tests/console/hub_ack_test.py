#!/usr/bin/python3
"""`cardtablectl ack SEQ --journal ID` in a venue run through a hub, as operations.md tells a director to
work: the open alerts listed at the hub (`cardtablectl alerts -c HUB`: each names its table, seq and
journal, in the lines for people too: only --json showed the journal, which `ack --journal` needs), acknowledged at the table's own control endpoint with the journal the alert names. Checked with
the real cardtabled (a simulated board returned one card short: Law 13D), cardtable-hub, cardtable-console
and cardtablectl:
- an ack sent to the hub, journal and all, is refused with where to send it, and closes nothing;
- an ack naming another journal is refused at the table and closes nothing anywhere;
- the ack naming the alert's journal closes it at the table, in the hub's list and on the console's page
  (the daemon's director.ack passes through the hub), and says who acknowledged it;
- a second ack of it says who was first.
  usage: hub_ack_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue, wait_for, first_message


def ctl(venue, endpoint, server_key, *args):
    """cardtablectl with the director's key: (exit status, the JSON reply or {}, stderr)."""
    out = subprocess.run([venue.ctl, *args, "--control", endpoint, "--key", f"{venue.keys}/console-director.key",
                          "--server-key", server_key, "--json"], capture_output=True, text=True)
    return out.returncode, json.loads(out.stdout) if out.stdout.strip() else {}, out.stderr


def at_hub(venue, *args):
    return ctl(venue, venue.ipc("hubctl"), f"{venue.keys}/hub.pub", *args)


def at_table(venue, *args):
    return ctl(venue, venue.ipc("ctl1"), f"{venue.keys}/table1.pub", *args)


def for_people(venue, endpoint, server_key, *args):
    """cardtablectl's lines for a person (no --json)."""
    return subprocess.run([venue.ctl, *args, "--control", endpoint, "--key", f"{venue.keys}/console-director.key", "--server-key", server_key],
                          capture_output=True, text=True).stdout


def hub_alerts(venue):
    return [a for a in at_hub(venue, "alerts")[1].get("alerts", []) if a.get("type") == "irregularity.wrong_count"]


def console_alerts(venue, cookie):
    return [a for a in first_message(venue, cookie)["alerts"] if a.get("type") == "irregularity.wrong_count"]


def main():
    build, source = sys.argv[1], sys.argv[2]
    venue = Venue(build, source, tables=[(1, f"{source}/tests/scenarios/play-count-after-play.scn", 8)])
    try:
        venue.start_console()
        venue.start_table(1)
        status, _, cookie = venue.login("td", "td-secret")
        assert status == 200
        alert = wait_for("table 1's wrong_count in the hub's list", lambda: hub_alerts(venue), 60)[0]
        seq, journal = alert["seq"], alert.get("journal", "")
        assert alert.get("table") == "1" and len(journal) == 16, alert
        wait_for("the alert on the console", lambda: console_alerts(venue, cookie), 20)
        # A director reading the hub's list (or the table's status) without --json learns the journal to name.
        listed = for_people(venue, venue.ipc("hubctl"), f"{venue.keys}/hub.pub", "alerts")
        print(listed.strip())
        assert f"#{seq} " in listed and f"journal {journal}" in listed, "the alert's journal is not shown:\n" + listed
        told = for_people(venue, venue.ipc("ctl1"), f"{venue.keys}/table1.pub", "status")
        assert f"journal {journal}" in told.splitlines()[0], "the table's journal is not shown:\n" + told

        # At the hub: refused, saying where an ack goes; nothing closed.
        code, reply, _ = at_hub(venue, "ack", str(seq), "--journal", journal, "--by", "td")
        print("at the hub:", reply.get("error"))
        assert code != 0 and reply.get("ok") is False and "table's own control endpoint" in reply.get("error", ""), (code, reply)
        # Another journal's: refused at the table, nothing closed.
        code, reply, _ = at_table(venue, "ack", str(seq), "--journal", "0" * 16, "--by", "td")
        print("another journal:", reply.get("error"))
        assert code != 0 and reply.get("ok") is False and "journal" in reply.get("error", ""), (code, reply)
        assert hub_alerts(venue) and console_alerts(venue, cookie), "a refused ack closed the alert"
        code, reply, _ = at_table(venue, "alerts")
        assert [a["seq"] for a in reply.get("alerts", [])] == [seq], reply

        # The alert's journal, at the table: closed there, at the hub and on the console.
        code, reply, _ = at_table(venue, "ack", str(seq), "--journal", journal, "--by", "td")
        assert code == 0 and reply.get("ok") is True, (code, reply)
        wait_for("the hub's list to follow the ack", lambda: not hub_alerts(venue), 20)
        wait_for("the console to close the alert", lambda: not console_alerts(venue, cookie), 20)
        assert at_table(venue, "alerts")[1].get("alerts") == []
        acks = [e for e in at_table(venue, "replay", "--since", "1")[1].get("events", []) if e.get("type") == "director.ack"]
        assert len(acks) == 1 and acks[0].get("journal") == journal and json.dumps(acks[0]).count('"td"') >= 1, acks

        # Again: the table says it was done already, and by whom.
        code, reply, _ = at_table(venue, "ack", str(seq), "--journal", journal, "--by", "anne")
        print("again:", reply.get("error"))
        assert reply.get("ok") is False and "td" in reply.get("error", ""), (code, reply)
        assert venue.console.poll() is None and venue.hub.poll() is None
    finally:
        venue.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
