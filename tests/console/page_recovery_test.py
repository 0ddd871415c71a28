#!/usr/bin/python3
"""The director's page in a real browser (headless chromium) when its stream is refused rather than cut.

  usage: page_recovery_test.py BUILD_DIR SOURCE_DIR    (exit 77: skipped, chromium or chromedriver missing)

EventSource reconnects by itself after a dropped connection, but gives up for good on an HTTP error. The
page showed the last grid under "reconnecting…" for ever, and no alert reached it, when:
- cardtable-console restarted (systemd, an upgrade): its sessions are in memory, so the stream answered
  401; the page must ask for the login again, and once logged in show the alert made meanwhile;
- the role's --max-streams pages were open (503): the page must try again and go live when one closes."""
import os
import shutil
import signal
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue, wait_for
from browser_test import browser, log_in, no_browser


def main():
    build, source = sys.argv[1], sys.argv[2]
    if no_browser():
        return 77
    sc = f"{source}/tests/scenarios"
    venue = Venue(build, source, tables=[(1, f"{sc}/play-count-after-play.scn", 8), (2, f"{sc}/play-clean-board.scn", 1)],
                  console_args=["--max-streams", "1"])
    profiles = [tempfile.mkdtemp(prefix="cardtable-chromium-") for _ in range(2)]
    drivers = []
    try:
        venue.start_console()
        venue.start_table(2)
        first = browser(profiles[0])
        drivers.append(first)
        log_in(first, venue.url, "td", "td-secret")
        wait_for("the first page live", lambda: first.find_element("id", "stream-state").text == "live", 10)

        # --max-streams 1: a second director page is refused (503) while the first is open ...
        second = browser(profiles[1])
        drivers.append(second)
        log_in(second, venue.url, "td", "td-secret")
        wait_for("the second page refused", lambda: second.find_element("id", "stream-state").text not in ("", "live"), 10)
        # ... and goes live once the first page is gone.
        first.quit()  # the tab closed
        drivers.remove(first)
        wait_for("the second page live after the first closed", lambda: second.find_element("id", "stream-state").text == "live" and
                 second.find_elements("css selector", '#grid .tile[data-table="default/A/2"]'), 20)
        print("a page refused for --max-streams went live when a slot freed")

        # The console restarts on the same port; its sessions are gone.
        port = venue.port
        venue.console.send_signal(signal.SIGTERM)
        venue.console.wait(timeout=10)
        venue.start_console(port)
        venue.start_table(1)  # an alert made after the restart
        wait_for("the login form after the console restarted", lambda: second.find_element("id", "login").is_displayed(), 20)
        # Read through wait_for: the page may still be re-rendering, and an element found then read can be
        # replaced in between (a stale reference, not a failure of what is checked).
        hidden = wait_for("the grid's state", lambda: (not second.find_element("id", "director").is_displayed(),), 5)[0]
        assert hidden, "the old grid stays hidden behind the login"
        print("after the restart:", wait_for("the login error", lambda: (second.find_element("id", "login-error").text,), 5)[0])
        log_in(second, None, "td", "td-secret")
        wait_for("table 1's alert after logging in again", lambda: second.find_elements(
            "css selector", '#alerts li[data-table="default/A/1"][data-type="irregularity.wrong_count"]'), 30)
        assert len(second.find_elements("css selector", '#alerts li[data-table="default/A/1"]')) == 1, "the alert once"
        assert len(second.find_elements("css selector", "#grid .tile")) == 2, "each tile once"
        assert second.find_element("id", "stream-state").text == "live"
        print("after logging in again the alert shows, once")
        return 0
    finally:
        for d in drivers:
            d.quit()
        for p in profiles:
            shutil.rmtree(p, ignore_errors=True)
        venue.close()


if __name__ == "__main__":
    sys.exit(main())
