#!/usr/bin/python3
"""A director dismisses the alerts of a table's replaced journal, in a real browser (headless chromium
driven by selenium) on the real console and hub. A table whose journal started again (its state folder
wiped, a spare computer) leaves its old journal's open alerts shown as "replaced": the table cannot
acknowledge them (their seqs are other events there now), and they stayed on every director's page until
the console restarted. Once handled by hand, a director dismisses one (Dismiss) or all of the table's
(Dismiss all replaced of table N); every director page drops them, the log and the table's timeline say
who. The new journal's alert is not dismissable: it is acknowledged at the table as ever.

  usage: replaced_dismiss_test.py BUILD_DIR SOURCE_DIR    (exit 77: skipped, chromium or chromedriver missing)"""
import json
import os
import shutil
import sys
import tempfile
import time
import http.client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue, event, publisher, wait_for, first_message, get
from browser_test import browser, log_in, no_browser

OLD, NEW = "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"
TABLE = "default/A/9"


def of_journal(message, journal):
    topic, body = message
    e = json.loads(body)
    e["journal"] = journal
    return topic, json.dumps(e)


def dismiss(venue, cookie, body):
    c = http.client.HTTPConnection("127.0.0.1", venue.port, timeout=10)
    c.request("POST", "/api/dismiss", json.dumps(body), {"Cookie": cookie, "Content-Type": "application/json", "X-Cardtable": "1"})
    r = c.getresponse()
    return r.status, json.loads(r.read() or b"{}")


def main():
    build, source = sys.argv[1], sys.argv[2]
    if no_browser():
        return 77
    venue = Venue(build, source, tables=[], publishers=[("table9", 9)])
    profile = tempfile.mkdtemp(prefix="cardtable-chromium-")
    ctx = pub = driver = None
    try:
        venue.start_console()
        _, _, td = venue.login("td", "td-secret")
        _, _, vugraph = venue.login("vugraph", "vu-secret")
        ctx, pub = publisher(venue, "table9")
        time.sleep(1)  # the hub's subscription to the publisher
        # Three alerts of the old journal, then the new journal's own alert under seq 1 again.
        messages = [of_journal(event(9, seq, f"irregularity.{kind}", "alert", f"old {kind}", evidence={"seat": "N"}), OLD)
                    for seq, kind in [(1, "wrong_count"), (2, "revoke"), (3, "lead_out_of_turn")]]
        messages.append(of_journal(event(9, 1, "irregularity.wrong_count", "alert", "new wrong_count", evidence={"seat": "S"}), NEW))
        for topic, body in messages:
            pub.send_multipart([topic.encode(), body.encode()])
            time.sleep(0.3)
        replaced = lambda: [a for a in first_message(venue, td)["alerts"] if a.get("replaced")]
        wait_for("the old journal's three alerts shown as replaced", lambda: len(replaced()) == 3, 10)

        # The API: what is no replaced alert is refused, and only a director may dismiss.
        assert dismiss(venue, td, {"table": TABLE, "journal": NEW, "seq": 1})[0] == 404, "the new journal's alert is acknowledged, not dismissed"
        assert dismiss(venue, td, {"table": TABLE, "journal": OLD, "seq": 7})[0] == 404
        assert dismiss(venue, td, {"table": TABLE, "seq": 2})[0] == 400, "one alert is named by its journal and seq"
        assert dismiss(venue, td, {"seq": 2})[0] == 400
        assert dismiss(venue, vugraph, {"table": TABLE})[0] == 403, "broadcasters dismiss nothing"
        assert len(replaced()) == 3

        driver = browser(profile)
        log_in(driver, venue.url, "td", "td-secret")
        # Read in one script: an element found, then read, may be gone between the two (a stale reference).
        shown = lambda: sorted(driver.execute_script("return [...document.querySelectorAll('#alerts li.replaced')].map((li) => li.dataset.seq)"))
        wait_for("three replaced alerts on the page", lambda: shown() == ["1", "2", "3"], 10)
        assert not driver.find_elements("css selector", "#alerts li:not(.replaced) button.dismiss"), "an open alert has no Dismiss"

        # One: the revoke.
        driver.find_element("css selector", '#alerts li.replaced[data-seq="2"] button.dismiss').click()
        wait_for("the dismissed alert gone from the page", lambda: shown() == ["1", "3"], 10)
        assert sorted(a["seq"] for a in replaced()) == [1, 3], "gone from the venue, not only from this page"
        # All of the table's: the other two.
        driver.find_element("css selector", '#alerts li.replaced[data-seq="1"] button.dismiss-all').click()
        wait_for("every replaced alert of the table gone from the page", lambda: not shown(), 10)
        assert not replaced()
        left = [a for a in first_message(venue, td)["alerts"]]
        assert len(left) == 1 and left[0]["journal"] == NEW, ("the new journal's alert stays open", left)
        assert len(driver.find_elements("css selector", "#alerts li")) == 1
        assert driver.find_element("id", "alert-count").text == "1"

        log = open(f"{venue.dir}/console.log").read()
        assert f"table {TABLE}: td dismissed 1 alert(s) of its replaced journal" in log, log
        assert f"table {TABLE}: td dismissed 2 alert(s) of its replaced journal" in log, log
        timeline = get(venue, td, f"/api/table?table={TABLE}")[1]["timeline"]
        assert [e["by"] for e in timeline if e["type"] == "console.replaced_dismissed"] == ["td", "td"], timeline
        assert get(venue, td, f"/api/table?table={TABLE}")[1]["tile"]["replaced_alerts"] == 0
        return 0
    finally:
        if driver:
            driver.quit()
        if pub:
            pub.close()
            ctx.term()
        venue.close()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
