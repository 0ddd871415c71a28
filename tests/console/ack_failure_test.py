#!/usr/bin/python3
"""A director's Acknowledge that does not get through, in a real browser (chromium): the page must say
so in words a director reads, and let them try again. A table that does not answer (its daemon hung, its
cable out) turned the button into "ipc://...: no reply within 3000 ms"; a console that does not answer
(restarting) left the button at "Sending…", disabled for good. Now: "The table did not answer: try
again" (the detail on the button's title) and "The console did not answer: try again", the button live.
The table is a stand-in that takes the ack and never answers; the console and the browser are real.
  usage: ack_failure_test.py BUILD_DIR SOURCE_DIR    (exit 77: chromium or chromedriver missing)"""
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import event, wait_for
from stand_in import run_page_test


ANSWERS = {"alerts": {"ok": True, "alerts": []}, "replay-live": {"ok": True, "events": []}}


def check(venue, table, pub, driver):
    alert = '#alerts li[data-table="default/A/1"]'

    def listed():
        pub.send_multipart([s.encode() for s in event(1, 1, "irregularity.wrong_count", "alert", "Board 1: North has 12 cards (Law 13A)")])
        return driver.find_elements("css selector", alert)
    wait_for("the alert on the page", listed, 20, every=0.3)
    button = driver.find_element("css selector", f"{alert} button.ack")

    button.click()
    wait_for("the ack's answer (the table's 3 s)", lambda: button.text != "Sending…", 15)
    print("a table that does not answer:", button.text, "| title:", button.get_attribute("title"))
    assert button.text == "The table did not answer: try again", button.text
    assert "no reply" in button.get_attribute("title") and button.is_enabled()
    assert "ack" in table.commands()

    venue.console.send_signal(signal.SIGTERM)
    venue.console.wait(timeout=10)
    button.click()
    wait_for("the page to give up on the console", lambda: button.text != "Sending…", 15)
    print("a console that does not answer:", button.text, "| title:", button.get_attribute("title"))
    assert button.text == "The console did not answer: try again" and button.is_enabled(), button.text


if __name__ == "__main__":
    sys.exit(run_page_test(check, ANSWERS))
