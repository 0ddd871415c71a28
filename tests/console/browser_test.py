#!/usr/bin/python3
"""The console in a real browser (headless Debian chromium driven by selenium), served by the real
cardtable-console, fed by a real cardtable-hub and three real cardtabled on simulated tables.

  usage: browser_test.py BUILD_DIR SOURCE_DIR    (exit 77: skipped, chromium or chromedriver missing)

Checks: three tiles; table 1's wrong_count (Law 13D) is an alert tile and an alert in the list within one
second of the daemon publishing it; the Acknowledge click reaches the daemon (its director.ack comes back)
and the tile clears; the director's page never holds a hand or the play (DOM and stream); the broadcaster
sees the finished board's hands and its double-dummy table (the daemon's libdds helper, as in its broadcast
PBN); the tiles show the tricks each side won (the released play agrees) while the hub carries only how
many were played. Screenshots of the grid and the broadcast view go to BUILD_DIR/console-artifacts."""
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time
import http.client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue, wait_for

CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


def no_browser():
    """True, said on stdout, where chromium or chromedriver is missing: the test is skipped (exit 77)."""
    if os.access(CHROMIUM, os.X_OK) and os.access(DRIVER, os.X_OK):
        return False
    print("SKIP: chromium or chromedriver is not installed (apt-get install chromium chromium-driver)")
    return True


def browser(profile):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    o = webdriver.ChromeOptions()
    o.binary_location = CHROMIUM
    for a in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", f"--user-data-dir={profile}",
              "--window-size=1440,900"]:
        o.add_argument(a)
    return webdriver.Chrome(service=Service(DRIVER), options=o)


def log_in(driver, url, name, password, timeout=10):
    """The login form filled and sent, as a director or broadcaster does (url: load the page first)."""
    if url:
        driver.get(url)
    wait_for("the login form", lambda: driver.find_element("id", "login-form").is_displayed(), timeout)
    driver.find_element("id", "login-name").send_keys(name)
    driver.find_element("id", "login-password").send_keys(password)
    driver.find_element("css selector", "#login-form button").click()


class StreamRecorder(threading.Thread):
    """Reads a session's event stream as a browser would, keeping every byte for inspection."""

    def __init__(self, port, cookie, path="/api/stream"):
        super().__init__(daemon=True)
        self.port, self.cookie, self.path, self.text, self.status = port, cookie, path, "", None

    def run(self):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        c.request("GET", self.path, headers={"Cookie": self.cookie, "Accept": "text/event-stream"})
        r = c.getresponse()
        self.status = r.status
        try:
            while True:
                chunk = r.read1(65536) if hasattr(r, "read1") else r.read(1)
                if not chunk:
                    break
                self.text += chunk.decode("utf-8", "replace")
        except Exception:
            pass


class HubListener(threading.Thread):
    """Everything the hub forwards, as any admitted subscriber receives it (the console's director key)."""

    def __init__(self, venue):
        super().__init__(daemon=True)
        import zmq
        keys = dict(l.split(" = ") for l in open(f"{venue.keys}/console-director.key").read().splitlines() if " = " in l)
        hub = dict(l.split(" = ") for l in open(f"{venue.keys}/hub.pub").read().splitlines() if " = " in l)
        self.ctx = zmq.Context()
        self.sub = self.ctx.socket(zmq.SUB)
        self.sub.curve_serverkey = hub["public"].encode()
        self.sub.curve_publickey, self.sub.curve_secretkey = keys["public"].encode(), keys["secret"].encode()
        self.sub.setsockopt(zmq.SUBSCRIBE, b"")
        self.sub.connect(venue.ipc("down"))
        self.messages = []  # "topic\nbody"

    def run(self):
        while True:
            try:
                self.messages.append("\n".join(f.decode("utf-8", "replace") for f in self.sub.recv_multipart()))
            except Exception:
                return


def hand_strings(deal):
    """'N:AKQ.xx.. ...' -> the four hands as written (S.H.D.C), the strings a leak would contain."""
    return [h for h in deal.split(":", 1)[1].split() if len(h) > 8]


def no_hand_contents(text, hands, where):
    assert "live." not in text, f"{where}: a live.* event reached the director"
    assert '"deal"' not in text, f"{where}: a deal reached the director"
    assert not re.search(r'"type":\s*"play\.', text), f"{where}: a card of the play reached the director"
    for h in hands:
        assert h not in text, f"{where}: the hand {h} reached the director"


def main():
    build, source = sys.argv[1], sys.argv[2]
    if no_browser():
        return 77
    artifacts = f"{build}/console-artifacts"
    os.makedirs(artifacts, exist_ok=True)
    sc = f"{source}/tests/scenarios"
    # Table 1 returns its board one card short after play (Law 13D: wrong_count, an alert); tables 2 and 3
    # play clean boards, released to broadcasters once returned (embargo 0).
    venue = Venue(build, source, tables=[(1, f"{sc}/play-count-after-play.scn", 8), (2, f"{sc}/play-clean-board.scn", 8),
                                         (3, f"{sc}/play-inferred-board-and-tricks.scn", 8)])
    profile = tempfile.mkdtemp(prefix="cardtable-chromium-")
    driver = None
    try:
        venue.start_console()
        venue.start_table(2)
        venue.start_table(3)
        status, _, director_cookie = venue.login("td", "td-secret")
        assert status == 200, "the director's login"
        recorder = StreamRecorder(venue.port, director_cookie)
        recorder.start()
        hub_listener = HubListener(venue)
        hub_listener.start()

        driver = browser(profile)
        log_in(driver, venue.url, "td", "td-secret")
        tiles = wait_for("three tiles", lambda: len(driver.find_elements("css selector", "#grid .tile")) == 3 and
                         driver.find_elements("css selector", "#grid .tile"), 10)
        assert len(tiles) == 3
        # The page in place, the alerting table starts: the alert must show. How soon (within a second of its
        # publication) is bench/console_bench.py's figure, measured with 200 tables (docs/benchmarks.md): a test
        # on a loaded CI machine cannot judge a latency, so this one prints it and bounds only what is absurd.
        venue.start_table(1)
        alert = wait_for("table 1's wrong_count alert", lambda: driver.find_elements(
            "css selector", '#alerts li[data-table="default/A/1"][data-type="irregularity.wrong_count"]'), 30)[0]
        published = float(alert.get_attribute("data-published-at"))
        shown = float(alert.get_attribute("data-shown-at"))
        tile_state = driver.find_element("css selector", '#grid .tile[data-table="default/A/1"]').get_attribute("data-state")
        print(f"wrong_count published {published:.3f}, shown {shown:.3f}: {1000 * (shown - published):.0f} ms; tile {tile_state}")
        assert shown - published < 20.0, "the alert reached the page only at the test's deadline"
        assert tile_state == "alert"
        assert "13D" in alert.text and "Table 1" in alert.text and "board 1" in alert.text

        wait_for("table 2's board returned", lambda: driver.find_element("css selector", '#grid .tile[data-table="default/A/2"]')
                 .get_attribute("data-state") == "done", 30)
        # The tricks each side won, on the tile: the table's director-only detail of its board.trick events.
        won = {}
        for t in (2, 3):
            tile = f'#grid .tile[data-table="default/A/{t}"]'
            w = wait_for(f"table {t}'s tricks won by each side", lambda: driver.find_element("css selector", tile).get_attribute(
                "data-state") == "done" and [e for e in driver.find_elements("css selector", f"{tile} .won") if e.get_attribute("data-ns")], 30)[0]
            time.sleep(1)  # the table's answer about the last trick may come after the board's return
            won[t] = (int(w.get_attribute("data-ns")), int(w.get_attribute("data-ew")))
            print(f"table {t}: tile shows tricks NS {won[t][0]} EW {won[t][1]} ({w.text})")
        driver.save_screenshot(f"{artifacts}/director-grid.png")
        seq = int(alert.get_attribute("data-seq"))
        alert.find_element("css selector", "button.ack").click()
        wait_for("the alert to clear after the daemon's director.ack",
                 lambda: not driver.find_elements("css selector", f'#alerts li[data-table="default/A/1"][data-seq="{seq}"]'), 10)
        wait_for("table 1's tile to clear", lambda: driver.find_element("css selector", '#grid .tile[data-table="default/A/1"]')
                 .get_attribute("data-state") != "alert", 5)
        # The daemon itself journalled the acknowledgement, by the console's director session.
        replay = venue.control(1, "replay", "--since", "1")
        assert "director.ack" in replay and '"td"' in replay.replace(" ", ""), "the daemon's journal holds the ack by td: " + replay[-400:]
        driver.find_element("css selector", '#grid .tile[data-table="default/A/1"]').click()
        wait_for("table 1's timeline", lambda: len(driver.find_elements("css selector", "#timeline li")) > 3, 5)
        driver.save_screenshot(f"{artifacts}/director-detail.png")
        # A tablet held upright: the alerts above the grid, tiles large enough for a finger.
        driver.set_window_size(820, 1180)
        time.sleep(0.3)
        assert driver.find_element("id", "side").location["y"] < driver.find_element("id", "grid").location["y"]
        driver.save_screenshot(f"{artifacts}/director-tablet.png")
        driver.set_window_size(1440, 900)
        dom = driver.execute_script("return document.documentElement.outerHTML")

        # The broadcaster: the finished boards' hands, from the tables' live endpoints.
        driver.delete_all_cookies()
        log_in(driver, venue.url, "vugraph", "vu-secret")
        wait_for("a finished board's hand diagram", lambda: driver.find_elements("css selector", "#boards .board .diagram"), 20)
        # The double-dummy table of table 2's board, as the daemon's helper (libdds) wrote it into the
        # broadcast PBN file: declarers N S E W, strains NT S H D C.
        pbn = wait_for("table 2's analysed broadcast PBN", lambda: [
            open(os.path.join(d, f)).read() for d in [f"{venue.dir}/state2/broadcast"] if os.path.isdir(d)
            for f in os.listdir(d) if f.endswith(".pbn") and "DoubleDummyTricks" in open(os.path.join(d, f)).read()], 20)[0]
        digits = re.search(r'\[DoubleDummyTricks "([0-9a-fA-F]{20})"\]', pbn).group(1)
        expected = {seat: [str(int(c, 16)) for c in digits[5 * i:5 * i + 5]] for i, seat in enumerate("NSEW")}
        board2 = '#boards .board[data-key^="default/A/2/"]'
        shown = wait_for("table 2's double-dummy table in the broadcast view", lambda: {
            tr.get_attribute("data-declarer"): [td.text for td in tr.find_elements("css selector", "td")]
            for tr in driver.find_elements("css selector", f"{board2} table.dd tr[data-declarer]")} or None, 20)
        print("double dummy shown:", shown, "par:", [p.text for p in driver.find_elements("css selector", f"{board2} .par")])
        assert shown == expected, f"the broadcast view's double-dummy table {shown} is the PBN's {expected}"
        par = re.search(r'\[ParContract "([^"]+)"\]', pbn)
        if par:
            assert par.group(1) in driver.find_element("css selector", f"{board2} .par").text
        # Each side's tricks on the director's tile were the released play's: count the tricks' winners.
        for t in (2, 3):
            tricks = driver.find_elements("css selector", f'#boards .board[data-key^="default/A/{t}/"] ol.tricks li')
            sides = [li.text.rsplit("→", 1)[1].strip() for li in tricks]
            # A trick whose winner the table could not tell ("unknown") counts for neither side.
            ns, ew = sum(1 for w in sides if w in ("N", "S")), sum(1 for w in sides if w in ("E", "W"))
            assert len(sides) == 13 and (ns, ew) == won[t], f"table {t}: the tile said {won[t]}, the play says NS {ns} EW {ew}: {sides}"
        time.sleep(0.5)
        driver.save_screenshot(f"{artifacts}/broadcast-view.png")
        broadcast_dom = driver.execute_script("return document.documentElement.outerHTML")

        # What the director's page and stream held, against the hands the broadcaster was given.
        st, _, vu_cookie = venue.login("vugraph", "vu-secret")
        live = StreamRecorder(venue.port, vu_cookie, "/api/live-stream")
        live.start()
        deals = wait_for("the broadcaster's snapshot", lambda: re.findall(r'"deal":"([^"]+)"', live.text), 5)
        hands = [h for d in deals for h in hand_strings(d)]
        assert hands and any(h[:6] in broadcast_dom or h.split(".")[0] in broadcast_dom for h in hands), "the broadcast view shows hands"
        no_hand_contents(dom, hands, "the director's DOM")
        no_hand_contents(recorder.text, hands, "the director's stream")
        assert "irregularity.wrong_count" in recorder.text and "director.ack" in recorder.text
        assert "board.trick" in recorder.text and "double_dummy" not in recorder.text and "double_dummy" not in dom
        # Who won the tricks never travels on the hub (a broadcaster may subscribe there): only how many.
        tricks_on_hub = [json.loads(m.split("\n", 1)[1]) for m in hub_listener.messages if "/board.trick\n" in m]
        assert tricks_on_hub, "board.trick events on the hub"
        for e in tricks_on_hub:
            assert set(e.get("evidence", {})) == {"tricks"} and "card_evidence" not in e, f"a side's tricks on the hub: {e}"
            assert "North-South" not in e["message"] and "East-West" not in e["message"], f"a side's tricks on the hub: {e}"
        # The director's session may not open the broadcaster's stream.
        refused = StreamRecorder(venue.port, director_cookie, "/api/live-stream")
        refused.run()
        assert refused.status == 403, f"the live stream refused a director: {refused.status}"
        assert venue.console.poll() is None, "the console is still running"
        print("artifacts:", ", ".join(sorted(os.listdir(artifacts))))
        return 0
    finally:
        if driver:
            driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
        venue.close()


if __name__ == "__main__":
    sys.exit(main())
