#!/usr/bin/python3
"""Every kind of alert's Evidence box, in a real browser (headless chromium, selenium), served by the real
cardtable-console, fed by a real cardtable-hub and a real cardtabled per simulated table.

  usage: evidence_box_test.py BUILD_DIR SOURCE_DIR    (exit 77: skipped, chromium or chromedriver missing)

A director clicks Evidence to decide what to do at the table: what was seen, where, what was expected.
The box must say more than the alert's message above it: every value of the event's evidence (expected,
observed, pockets, counts...) and of its director-only card detail (`evidence SEQ`: the card, the UIDs,
the misplaced cards), the card detail where both name the same thing. The box showed only the message for
every alert without card detail (a wrong count, a lead out of turn, a dummy exchange, a wrong board, a slow
board...): the table's reply holds an empty `card_evidence`, which the page took for the whole detail."""
import os
import shutil
import sys
import tempfile
import json

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue, wait_for
from browser_test import browser, log_in, no_browser

# One scenario a table, together raising every kind of alert the table has (tests/scenarios/*.events).
SCENARIOS = {
    1: "station-hands-swapped-card-astray",        # board_rotated, deal_mismatch, wrong_count
    2: "station-unknown-card",                     # missing_card, unknown_card
    3: "station-duplicate-deal",                   # duplicate_deal
    4: "station-foreign-session",                  # foreign_session
    5: "station-hands-second-spade-ace-from-another-pack",  # surplus_card
    6: "station-unshuffled-alternating-colours",   # unshuffled_deal
    7: "station-wrong-board",                      # wrong_board
    8: "play-opening-lead-out-of-turn-accepted",   # lead_out_of_turn
    9: "play-dummy-exchange-whole-board-notrump",  # dummy_exchange
    10: "play-wrong-board-played-out",             # card_from_other_hand
    11: "play-revoke-corrected",                   # revoke
    12: "play-board-returned-to-wrong-pockets",    # fouled_board
    13: "play-slow-board",                         # timing.slow_board
}
KINDS = {"irregularity.board_rotated", "irregularity.deal_mismatch", "irregularity.wrong_count", "irregularity.missing_card",
         "irregularity.unknown_card", "irregularity.duplicate_deal", "irregularity.foreign_session", "irregularity.surplus_card",
         "irregularity.unshuffled_deal", "irregularity.wrong_board", "irregularity.lead_out_of_turn", "irregularity.dummy_exchange",
         "irregularity.card_from_other_hand", "irregularity.revoke", "irregularity.fouled_board", "timing.slow_board"}
HAND_KEYS = {"deal", "hands", "hand", "play", "cards", "pbn", "lin"}  # never shown to a director (console/venue_state.cpp)


def main():
    build, source = sys.argv[1], sys.argv[2]
    if no_browser():
        return 77
    sc = f"{source}/tests/scenarios"
    # Every table is given the whole master folder, as a station holding the tournament's deal files is:
    # "as master board 1/4" is board 4 of the session being played (Spring Pairs), not Autumn Teams' (the
    # first file loaded), which reported a foreign session before table/table_config.cpp looked there first.
    venue = Venue(build, source, tables=[(t, f"{sc}/{name}.scn", 8) for t, name in SCENARIOS.items()])
    profile = tempfile.mkdtemp(prefix="cardtable-chromium-")
    driver = None
    try:
        venue.start_console()
        driver = browser(profile)
        log_in(driver, venue.url, "td", "td-secret")
        wait_for("the grid", lambda: driver.find_elements("css selector", "#grid .tile"), 10)
        for t in SCENARIOS:
            venue.start_table(t)
        shown = lambda: set(driver.execute_script("return [...document.querySelectorAll('#alerts li')].map((li) => li.dataset.type)"))
        try:
            wait_for("an alert of every kind", lambda: KINDS <= shown(), 90)
        finally:
            print("alert kinds shown:", sorted(shown()), "missing:", sorted(KINDS - shown()))
        checked, failed = set(), set()
        for li in driver.find_elements("css selector", "#alerts li"):
            kind, table, seq = li.get_attribute("data-type"), li.get_attribute("data-table"), li.get_attribute("data-seq")
            # The table's own answer to `evidence SEQ`, with the director's key: what the box must show.
            reply = json.loads(venue.control(int(table.rsplit("/", 1)[1]), "evidence", seq))
            event = reply["event"]
            public = {k: v for k, v in (event.get("evidence") or {}).items() if k not in HAND_KEYS}
            card = {k: v for k, v in (reply.get("card_evidence") or {}).items() if k not in HAND_KEYS}
            message = li.find_element("css selector", ".msg").text
            li.find_element("css selector", "button.more").click()
            box = wait_for(f"the evidence box of {kind} (table {table}, seq {seq})",
                           lambda: li.find_elements("css selector", ".evidence") and li.find_element("css selector", ".evidence").text, 10)
            lacks = [f"{k}: {v}" for k, v in {**public, **card}.items() if f"{k}: {v}" not in box]
            if reply.get("card_message") and reply["card_message"] != event.get("message") and reply["card_message"] not in box:
                lacks.append(reply["card_message"])
            if event.get("seats") and "seats: " + ", ".join(event["seats"]) not in box:  # where: the seats, the pockets
                lacks.append("seats: " + ", ".join(event["seats"]))
            if box.strip() == message.strip():
                lacks.insert(0, "anything but the message")
            print(f"{kind} (table {table}, seq {seq}): {box!r}" + (f"\n    LACKS {lacks}" if lacks else ""))
            if lacks:
                failed.add(kind)
            checked.add(kind)
        assert KINDS <= checked, f"kinds not checked: {sorted(KINDS - checked)}"
        assert not failed, f"evidence boxes lacking the evidence: {sorted(failed)}"
        assert venue.console.poll() is None, "the console is still running"
        return 0
    finally:
        if driver:
            driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
        venue.close()


if __name__ == "__main__":
    sys.exit(main())
