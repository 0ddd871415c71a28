#!/usr/bin/python3
"""An alert the console missed and replayed after its acknowledgement, in a real browser (chromium). The
hub dropped or lost a table's alert (it restarted between two events), and the next event the console
heard was the director's ack of it: the ack showed the gap, the table's replay brought the alert, and the
page listed it as open for good, its Acknowledge refused by the table ("already acknowledged"). Now it
joins the table's timeline only: no alert on the page, nor in the snapshot a page opened later gets.
The table here is a stand-in on the console's side (a PUB for its events, a control endpoint answering
replay), so that the gap is exactly the alert; the console and the browser are the real ones.
  usage: ack_before_alert_test.py BUILD_DIR SOURCE_DIR    (exit 77: chromium or chromedriver missing)"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import event, wait_for, first_message
from stand_in import run_page_test


# The table's replay of the gap: the alert (seq 2) the console missed.
ALERT = json.loads(event(1, 2, "irregularity.wrong_count", "alert", "Board 1: North has 12 cards (Law 13A)")[1])
ANSWERS = {"alerts": {"ok": True, "alerts": []}, "replay-live": {"ok": True, "events": []},
           "replay": {"ok": True, "events": [ALERT]}, "evidence": {"ok": False, "error": "none"}}


def check(venue, table, pub, driver):
    _, _, cookie = venue.login("td", "td-secret")
    tile = '#grid .tile[data-table="default/A/1"]'

    def heard():
        pub.send_multipart([s.encode() for s in event(1, 1, "board.arrived", message="Board 1 is on the table")])
        return driver.find_element("css selector", tile).get_attribute("data-state") == "ready"
    wait_for("table 1's first event on the page", heard, 20, every=0.3)
    # The alert (seq 2) lost on the way; the director's ack of it (seq 3) arrives.
    pub.send_multipart([s.encode() for s in event(1, 3, "director.ack", message="Event 2 acknowledged by td",
                                                  evidence={"seq": "2", "by": "td"})])
    wait_for("the console's replay of the gap", lambda: "replay" in table.commands(), 10)
    driver.find_element("css selector", tile).click()
    wait_for("the replayed alert in the table's timeline", lambda: any(
        "#2 " in li.text for li in driver.find_elements("css selector", "#timeline li")), 10)
    time.sleep(0.5)  # the replay's update has reached the page (it came before the timeline was read)
    listed = driver.find_elements("css selector", '#alerts li[data-table="default/A/1"]')
    assert not listed, "the acknowledged alert is listed as open: " + " | ".join(li.text for li in listed)
    assert driver.find_element("id", "alert-count").text == "0"
    assert driver.find_element("css selector", tile).get_attribute("data-state") != "alert"
    assert not first_message(venue, cookie)["alerts"], "a page opened now would list it"
    lines = [li.text for li in driver.find_elements("css selector", "#timeline li")]
    print("\n".join(lines))
    seqs = [int(l.split("#")[1].split()[0]) for l in lines]  # seq 1 as often as it was sent until the page had it
    assert seqs[:2] == [3, 2] and seqs == sorted(seqs, reverse=True), "the timeline in seq order, newest first"


if __name__ == "__main__":
    sys.exit(run_page_test(check, ANSWERS))
