#!/usr/bin/python3
"""Why a table's tile is lost, in a real browser (chromium). "lost" is a table gone silent (its computer
off, its daemon dead, its cable out) or a device of it gone (a reader unplugged): a director walks to the
table either way, but looks for different things, and the tile's title said only "lost". Now it says
"silent: not heard since <clock time>" or "device gone: <the device>", and the tile comes back when the table
speaks again. A zone that reads nothing (silent, its device lost) is named on the tile ("not reading: play:N")
until it reads again, and a reader missing many replies until it is said good. The table is a stand-in publishing its events; the console and the browser are real.
  usage: lost_tile_test.py BUILD_DIR SOURCE_DIR    (exit 77: chromium or chromedriver missing)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import event, wait_for
from stand_in import run_page_test


ANSWERS = {"alerts": {"ok": True, "alerts": []}, "replay-live": {"ok": True, "events": []}}


def check(venue, table, pub, driver):
    tile = lambda: driver.find_element("css selector", '#grid .tile[data-table="default/A/1"]')
    seq = iter(range(1, 1000))

    def says(type_="daemon.heartbeat", **kw):
        pub.send_multipart([s.encode() for s in event(1, next(seq), type_, **kw)])
    wait_for("the table heard", lambda: says() or tile().get_attribute("data-state") == "idle", 20, every=0.3)
    # A zone that reads nothing (silent here) is named on the tile until it reads again: the table's checks
    # there are blind meanwhile. A flicker warning is said only when it begins: it names no zone for good.
    says("reading.uncertain", severity="warning", message="No reading from play:N", evidence={"zone": "play:N", "cause": "silent"})
    says("reading.uncertain", severity="warning", message="play:W keeps changing", evidence={"zone": "play:W", "cause": "flicker"})
    wait_for("the unread zone on the tile", lambda: "not reading: play:N" in (tile().get_attribute("title") or ""), 10)
    print("unread:", tile().get_attribute("title"))
    assert "play:W" not in tile().get_attribute("title"), tile().get_attribute("title")
    says("reading.resumed", message="Readings from play:N again", evidence={"zone": "play:N"})
    wait_for("the zone read again", lambda: "not reading" not in (tile().get_attribute("title") or ""), 10)
    # A reader missing many replies (device.health, 1.9) still reads: named, the table not lost.
    says("device.health", severity="warning", message="Reader board0 misses 21.5 % of its replies",
         evidence={"device": "board0", "state": "missing replies", "share": "21.5"})
    wait_for("the reader named", lambda: "reader missing replies: board0" in (tile().get_attribute("title") or ""), 10)
    assert tile().get_attribute("data-state") != "lost", tile().get_attribute("title")
    says("device.health", message="Reader board0 misses replies as readers do again",
         evidence={"device": "board0", "state": "good", "share": "2.0"})
    wait_for("the reader no longer named", lambda: "missing replies" not in (tile().get_attribute("title") or ""), 10)
    # Silent: nothing more from it.
    wait_for("the silent table lost", lambda: tile().get_attribute("data-state") == "lost", 10)
    print("silent:", tile().get_attribute("title"))
    assert "silent: not heard since " in tile().get_attribute("title"), tile().get_attribute("title")
    # Back, then its reader unplugged: lost for the device, and named.
    says("device.lost", severity="warning", message="Device reader-N lost", evidence={"device": "reader-N"})
    wait_for("the device's loss on the tile", lambda: "device gone: reader-N" in (tile().get_attribute("title") or "") or says() and False, 10)
    print("device:", tile().get_attribute("title"))
    assert tile().get_attribute("data-state") == "lost" and "silent" not in tile().get_attribute("title")


if __name__ == "__main__":
    sys.exit(run_page_test(check, ANSWERS, console_args=["--lost-after", "2"]))
