#!/usr/bin/python3
"""Sealed until the embargo, checked by a client that is not ours: Python's zmq module (libzmq with
libsodium: CURVE), written from docs/protocol.md alone, connecting with CURVE keys as each role.

For each scenario of a representative set of the golden ones (below; --all: every tests/scenarios/*.scn;
--scenario NAME.scn: those named) two real cardtabled run it with an embargo longer than the run, so every message is received before the embargo ends:

  table 1  binds its events, control and live endpoints; the director, broadcaster and hub keys each
           subscribe to the events and the live endpoint and ask the control endpoint every read request
           (version, status, snapshot, alerts, every page of replay, replay-live) and `evidence` for every
           journalled seq;
  table 2  publishes to a real cardtable-hub with its table key (clients/table/default/A/2.pub); the same
           three roles subscribe to the hub's downstream and ask its control endpoint (version, status,
           snapshot, alerts).

A subscriber of table 1's events endpoint meets each fresh daemon only after its CURVE handshake, so
most of a fast scenario's events were published before it: they reach it in the replays, and table 2's
whole published stream (the same scenario) reaches every role through the hub, which stays up.

Every message any role receives is scanned for card identities by this file's own detector (below, not
the daemon's protocol/card_seal). The test fails when any names a card, when the live endpoint gives any
role anything before the embargo, when a non-director gets `evidence`, or when the detector does not find
the cards in a director's `evidence` replies (the fouled board's ♦Q among them): the card detail must still
reach directors, and a detector that finds nothing proves nothing.

The representative set: every golden scenario takes about 1.5 s here (two daemons start: most of it),
4 s on a loaded 2-core machine, more under ASan -- 77 of them are 2 to 5 minutes. So by default the fewest
scenarios that together produce every event type of the golden .events files (a greedy cover, computed
from the files, so a new event type brings its scenario in), after the fouled board and the two the issue
named (a misplaced card's evidence listing cards; revoke messages naming them). --all runs every one.

usage: sealed_roles.py CARDTABLED HUB SCENARIO_DIR [--speed S] [--all | --scenario NAME.scn ...]
"""
import ctypes
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import zmq

# --- the card-identity detector -------------------------------------------------------------------
# docs/protocol.md writes a card suit letter first ("SQ", "H10", "DQ"; tricks "W:SK N:S4 E:S3 S:S2") and
# messages with a suit symbol ("♦Q"); PBN deals and hands are "AKQ.JT9.8.765". A client may also meet
# rank-first forms ("QS", "10h", "Qh"), words ("queen of diamonds") and structured hands ({"S": "AKQ"}).
SUIT_SYMBOLS = "\u2660\u2665\u2666\u2663\u2664\u2661\u2662\u2667"  # ♠♥♦♣ and the outline ♤♡♢♧
RANK = r"(?:10|[2-9TJQKA])"
EDGE_L, EDGE_R = r"(?<![A-Za-z0-9])", r"(?![A-Za-z0-9])"
PATTERNS = [
    ("suit symbol", re.compile("[" + SUIT_SYMBOLS + "]")),
    ("suit letter, rank", re.compile(EDGE_L + r"[SHDC]" + RANK + EDGE_R)),
    ("rank, suit letter", re.compile(EDGE_L + RANK + r"[SHDCshdc]" + EDGE_R)),
    ("PBN hand", re.compile(r"(?:[AKQJT2-9]+|-)?\.[AKQJT2-9]*\.[AKQJT2-9]*\.|[AKQJT2-9]+\.[AKQJT2-9]*\.")),
    ("card in words", re.compile(r"\b(?:ace|king|queen|jack|ten|nine|eight|seven|six|five|four|three|two|10|[2-9])"
                                 r"\s+of\s+(?:spades|hearts|diamonds|clubs)\b", re.I)),
]
# Words that are not card identities although they match above: a contract ("4H", "2S": level and strain,
# public once the auction is over) is written by the daemon after the word "contract" or with "by"/"X";
# those are skipped by key, and in a message by their context below.
NAME_KEYS = {"tournament", "section", "table", "event", "session", "type", "class", "contract", "declarer", "strain"}
CONTRACT = re.compile(r"\b[1-7](?:NT|N|[SHDC])(?:XX|X)?(?:\s+(?:by\s+)?[NESW])?\b")
SUIT_KEYS = {"S", "H", "D", "C", "spades", "hearts", "diamonds", "clubs"}
RANKS_ONLY = re.compile(r"^(?:10|[AKQJT2-9])+$")
# A CURVE public key (the hub's `server_key` for a table's control endpoint, docs/protocol.md) is 40 random
# Z85 characters: about one key in twenty holds a "CK" or "9s" between punctuation ("?CK-6"), a card by the
# patterns above. Only a whole Z85 key under that name is passed; anything else there is scanned.
KEY_KEYS = {"server_key"}
Z85_KEY = re.compile(r"^[0-9a-zA-Z.\-:+=^!/*?&<>()\[\]{}@%$#]{40}$")


def card_identities(value, key=""):
    """Every (key, what, text) in a decoded JSON value that names a card."""
    found = []
    if isinstance(value, str):
        if key in NAME_KEYS or (key in KEY_KEYS and Z85_KEY.match(value)):
            return found
        # A contract is not a card: "contract 4H by S", "4HX S". Blank it out where it follows "contract".
        text = re.sub(r"(?i)(contract\w*\W+)" + CONTRACT.pattern, r"\1", value)
        for what, pattern in PATTERNS:
            if pattern.search(text):
                found.append((key, what, value))
        if key in SUIT_KEYS and RANKS_ONLY.match(value):
            found.append((key, "ranks of a suit", value))
    elif isinstance(value, dict):
        for k, v in value.items():
            found += card_identities(v, k)
    elif isinstance(value, list):
        for v in value:
            found += card_identities(v, key)
    return found


def check_detector():
    """The detector finds what it must and passes what it must: a detector that cannot fail proves nothing."""
    cards = ["SQ", "H10", "DQ", "W:SK N:S4 E:S3 S:S2", "North plays \u26604", "East played \u2666Q", "QS", "10h", "Qh",
             "AKQ.JT9.8.765", "N:AKQ.JT9.8.765 ...", ".AKQJT98765432..", "the queen of diamonds", "10 of clubs", ["C2"]]
    for c in cards:
        assert card_identities(c), "the detector misses %r" % (c,)
    assert card_identities({"hands": {"N": {"S": "AKQ"}}}), "the detector misses a structured hand"
    clean = ["Board 1: East played a card the master record gives to South (Law 87A)", "Spring Pairs / 1, board 1",
             "contract 4H by S", "contract 3NT by W", "1 card (named for directors: request evidence)", "alive",
             "seats N, E", "13 cards", "Law 64A", "slow board: 312 s", "as", "The", "Qhat"]
    for c in clean:
        assert not card_identities(c), "the detector names a card in %r: %s" % (c, card_identities(c))
    # A hub's server key that once failed CI: "?CK-" is not the club king.
    key = {"controls": {"default/A/2": {"server_key": "[Zd6!Kl45xsFg/@/!Lp[Vvf?CK-6Jq:hJI!3=n5o"}}}
    assert not card_identities(key), "the detector names a card in a CURVE key: %s" % (card_identities(key),)
    assert card_identities({"server_key": "East played CK"}), "the detector passes anything named server_key"


def representative(folder, every):
    """The issue's scenarios, then greedily the scenario that adds most event types not yet produced."""
    types = {}
    for scn in every:
        with open(os.path.join(folder, scn[:-4] + ".events")) as f:
            types[scn] = {line.split()[2] for line in f if len(line.split()) > 2}
    chosen = ["play-fouled-board.scn", "play-board-returned-to-wrong-pockets.scn", "play-revoke-established.scn"]
    produced = set().union(*(types[c] for c in chosen))
    everything = set().union(*types.values())
    while produced != everything:
        best = max(every, key=lambda scn: (len(types[scn] - produced), scn))
        chosen.append(best)
        produced |= types[best]
    return chosen


# --- keys and processes -----------------------------------------------------------------------------
def write_keypair(folder, name):
    """NAME.key (mode 0600) and NAME.pub in the project's key file format (docs/protocol.md: cardtablectl keygen)."""
    os.makedirs(folder, exist_ok=True)
    public, secret = (k.decode() for k in zmq.curve_keypair())
    key = os.path.join(folder, name + ".key")
    with open(os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
        f.write("public = %s\nsecret = %s\n" % (public, secret))
    with open(os.path.join(folder, name + ".pub"), "w") as f:
        f.write("public = %s\n" % public)
    return public, secret


def wait_for(done, limit=30.0, what="a condition"):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if done():
            return True
        time.sleep(0.05)
    raise AssertionError("waited %.0f s for %s" % (limit, what))


class Client:
    """One role's sockets: CURVE with its keypair against a server's public key."""

    def __init__(self, ctx, role, keypair):
        self.ctx, self.role, (self.public, self.secret) = ctx, role, keypair
        self.subs = []  # (endpoint name, SUB socket)
        self.reqs = {}  # endpoint -> REQ socket, kept: a CURVE handshake per request would be most of the run

    def curve(self, s, server):
        s.curve_serverkey, s.curve_publickey, s.curve_secretkey = server.encode(), self.public.encode(), self.secret.encode()
        s.linger = 0
        s.reconnect_ivl = 20
        return s

    def subscribe(self, name, endpoint, server):
        s = self.curve(self.ctx.socket(zmq.SUB), server)
        s.setsockopt(zmq.SUBSCRIBE, b"")
        s.connect(endpoint)
        self.subs.append((name, s))

    def drain(self):
        """Every message waiting on this role's subscriptions: (endpoint name, topic, decoded body)."""
        out = []
        for name, s in self.subs:
            while s.poll(0):
                frames = s.recv_multipart()
                assert len(frames) == 2, "%s: a message of %d frames" % (name, len(frames))
                out.append((name, frames[0].decode(), json.loads(frames[1])))
        return out

    def ask(self, endpoint, server, body, timeout_ms=5000):
        s = self.reqs.get(endpoint)
        if s is None:
            s = self.reqs[endpoint] = self.curve(self.ctx.socket(zmq.REQ), server)
            # A daemon stopped between scenarios loses a request: send again, and match replies to requests.
            s.setsockopt(zmq.REQ_RELAXED, 1)
            s.setsockopt(zmq.REQ_CORRELATE, 1)
            s.connect(endpoint)
        s.rcvtimeo = timeout_ms
        s.send_json(body)
        try:
            return s.recv_json()
        except zmq.Again:
            return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cardtabled")
    ap.add_argument("hub")
    ap.add_argument("scenario_dir")
    ap.add_argument("--speed", default="100")
    ap.add_argument("--scenario", action="append")
    ap.add_argument("--all", action="store_true")
    a = ap.parse_args()
    check_detector()
    every = sorted(f for f in os.listdir(a.scenario_dir) if f.endswith(".scn"))
    scenarios = a.scenario or (every if a.all else representative(a.scenario_dir, every))
    tmp = tempfile.mkdtemp(prefix="sealed-roles-")
    procs = []
    try:
        run(a, scenarios, tmp, procs)
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                p.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def die_with_parent():
    """The daemons end when this test does, even when ctest kills it at its timeout."""
    ctypes.CDLL(None, use_errno=True).prctl(1, 15)  # PR_SET_PDEATHSIG, SIGTERM


def start(args, log, procs):
    with open(log, "ab") as err:
        p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err, preexec_fn=die_with_parent)
    procs.append(p)
    return p


def stop(p):
    p.terminate()
    rc = p.wait()
    assert rc == 0, "%s exited %d" % (p.args[0], rc)


def run(a, scenarios, tmp, procs):
    t0 = time.monotonic()
    ctx = zmq.Context()
    ipc = lambda n: "ipc://%s/%s" % (tmp, n)
    daemon_clients, hub_clients = os.path.join(tmp, "clients"), os.path.join(tmp, "hub-clients")
    server_pub, _ = write_keypair(os.path.join(tmp, "keys"), "table1")
    table2_pub, _ = write_keypair(os.path.join(tmp, "hub-clients", "table", "default", "A"), "2")
    shutil.move(os.path.join(hub_clients, "table", "default", "A", "2.key"), os.path.join(tmp, "keys", "table2.key"))
    hub_pub, _ = write_keypair(os.path.join(tmp, "keys"), "hub")
    clients = {}
    for role in ("director", "broadcaster", "hub"):
        clients[role] = Client(ctx, role, write_keypair(os.path.join(daemon_clients, role), "a-" + role))
        for ext in (".pub",):  # the same key is admitted by the hub, under the same role
            os.makedirs(os.path.join(hub_clients, role), exist_ok=True)
            shutil.copy(os.path.join(daemon_clients, role, "a-" + role + ext), os.path.join(hub_clients, role))
    keys = lambda n: os.path.join(tmp, "keys", n + ".key")
    # The hub asks table 2 for its open alerts with its own key, admitted by the table as a hub.
    shutil.copy(os.path.join(tmp, "keys", "hub.pub"), os.path.join(daemon_clients, "hub", "venue-hub.pub"))
    hub = start([a.hub, "--upstream", ipc("hub-up"), "--downstream", ipc("hub-down"), "--control", ipc("hub-ctl"),
                 "--curve-secret", keys("hub"), "--clients", hub_clients, "--table-control", "default/A/2=" + ipc("ctl2")],
                os.path.join(tmp, "hub.log"), procs)
    for c in clients.values():
        c.subscribe("events", ipc("pub1"), server_pub)
        c.subscribe("live", ipc("live1"), server_pub)
        c.subscribe("hub downstream", ipc("hub-down"), hub_pub)
    leaks, scanned, per_role, evidence_with_cards, fouled_dq = [], 0, {}, 0, False
    live_seen, journalled = 0, 0  # journalled events also received as they were published (events endpoint)

    def scan(scn, role, where, message):
        nonlocal scanned
        scanned += 1
        per_role[role + " " + where.split(" (")[0]] = per_role.get(role + " " + where.split(" (")[0], 0) + 1
        for key, what, text in card_identities(message):
            leaks.append("%s: %s on %s: %s %s = %r" % (scn, role, where, what, key, text[:160]))

    director = clients["director"]
    for scn in scenarios:
        for d in ("state1", "state2"):
            shutil.rmtree(os.path.join(tmp, d), ignore_errors=True)
        common = [a.cardtabled, "--master", os.path.join(a.scenario_dir, "master"), "--simulate", os.path.join(a.scenario_dir, scn),
                  "--speed", a.speed, "--embargo", "3600", "--heartbeat", "0.2", "--clients", daemon_clients]
        one = start(common + ["--curve-secret", keys("table1"), "--state-dir", os.path.join(tmp, "state1"), "--publish", "bind:" + ipc("pub1"),
                              "--control", "bind:" + ipc("ctl1"), "--live", "bind:" + ipc("live1")], os.path.join(tmp, "table1.log"), procs)
        two = start(common + ["--curve-secret", keys("table2"), "--state-dir", os.path.join(tmp, "state2"), "--table", "2",
                              "--publish", "connect:" + ipc("hub-up"), "--hub-key", os.path.join(tmp, "keys", "hub.pub"),
                              "--control", "bind:" + ipc("ctl2"), "--live", "bind:" + ipc("live2")], os.path.join(tmp, "table2.log"), procs)

        def finished(ctl):
            r = director.ask(ctl, server_pub if ctl == ipc("ctl1") else table2_pub, {"command": "status"}, 250)
            return bool(r and r.get("ok") and r["status"]["simulator"]["finished"])

        t1 = time.monotonic()
        wait_for(lambda: finished(ipc("ctl1")) and finished(ipc("ctl2")), 60, scn + " to finish at both tables")
        t2 = time.monotonic()
        # Both tables finished: the hub's list of table 2's open alerts is the table's own (it asks the
        # table over CURVE when their counts differ), and a heartbeat more carries the last counts.
        own = director.ask(ipc("ctl2"), table2_pub, {"command": "alerts"})
        assert own and own["ok"], "%s: table 2's alerts: %s" % (scn, own)

        def hub_agrees():
            r = director.ask(ipc("hub-ctl"), hub_pub, {"command": "alerts"}, 1000)
            return bool(r and r["ok"] and r["tables"].get("default/A/2", {}).get("open", 0) == own["count"] and not r["incomplete"])

        wait_for(hub_agrees, 30, "%s: the hub to list table 2's %d open alerts" % (scn, own["count"]))
        time.sleep(0.4)
        published = set()
        for role, c in clients.items():
            for where, topic, body in c.drain():
                if where == "events" and "seq" in body:
                    published.add(body["seq"])
                if where == "live":
                    leaks.append("%s: %s received %s on the live endpoint before the embargo" % (scn, role, topic))
                scan(scn, role, where, body)
            for command in ("version", "status", "snapshot", "alerts"):
                r = c.ask(ipc("ctl1"), server_pub, {"command": command})
                assert r and r["ok"], "%s: %s asked %s: %s" % (scn, role, command, r)
                scan(scn, role, "control " + command, r)
                r = c.ask(ipc("hub-ctl"), hub_pub, {"command": command})
                assert r and r["ok"], "%s: %s asked the hub %s: %s" % (scn, role, command, r)
                scan(scn, role, "hub control " + command, r)
            since, seqs = 1, []
            while True:
                r = c.ask(ipc("ctl1"), server_pub, {"command": "replay", "since": since})
                assert r and r["ok"], "%s: %s replay since %d: %s" % (scn, role, since, r)
                scan(scn, role, "control replay", r)
                seqs += [e["seq"] for e in r["events"]]
                if not r["more"]:
                    break
                since = seqs[-1] + 1
            assert seqs == list(range(1, len(seqs) + 1)), "%s: %s replayed a gap: %s" % (scn, role, seqs[:40])
            if role == "director":
                journalled += len(seqs)
                live_seen += len(published & set(seqs))
            r = c.ask(ipc("ctl1"), server_pub, {"command": "replay-live", "since": 1})
            assert r is not None, "%s: %s replay-live unanswered" % (scn, role)
            scan(scn, role, "control replay-live", r)
            if r.get("ok") and r["events"]:
                leaks.append("%s: %s: replay-live gave %d events before the embargo" % (scn, role, len(r["events"])))
            # Every seq for the director; the first and the last for the others (each refused alike).
            for seq in seqs if role == "director" else sorted(set(seqs[:1] + seqs[-1:])):
                r = c.ask(ipc("ctl1"), server_pub, {"command": "evidence", "seq": seq})
                assert r is not None, "%s: %s evidence %d unanswered" % (scn, role, seq)
                if role != "director":
                    assert not r["ok"], "%s: the %s role got evidence %d: %s" % (scn, role, seq, r)
                    scan(scn, role, "control evidence (refused)", r)
                    continue
                assert r["ok"], "%s: director evidence %d: %s" % (scn, seq, r)
                named = card_identities({k: r[k] for k in ("card_message", "card_evidence") if k in r})
                evidence_with_cards += bool(named)
                if scn == "play-fouled-board.scn" and r["event"]["type"] == "irregularity.card_from_other_hand":
                    fouled_dq = any("DQ" in text or "\u2666Q" in text for _, _, text in named)
        print("  %s: %.1f s (finished after %.2f s, asked in %.2f s)" % (scn, time.monotonic() - t0, t2 - t1, time.monotonic() - t2), flush=True)
        stop(one)
        stop(two)
        assert not [p for p in procs if p.poll() is not None and p.returncode != 0], "a process failed"
    stop(hub)
    with open(os.path.join(tmp, "hub.log")) as f:
        hub_log = f.read()
    asked = hub_log.count("open alerts, from its control endpoint")
    assert "open alerts, from its control endpoint" in hub_log, "the hub never had table 2's list over CURVE:\n" + hub_log[-3000:]
    took = time.monotonic() - t0
    print("sealed roles: %d scenarios at speed %s, %d messages scanned (%s), %d director evidence replies naming cards, in %.1f s;"
          " %d of %d journalled events were also received as published (the rest were published before the CURVE"
          " handshake with a daemon just started could finish: scanned in the replays, and table 2's whole published stream"
          " through the hub); the hub had table 2's own alert list %d times"
          % (len(scenarios), a.speed, scanned, ", ".join("%s %d" % kv for kv in sorted(per_role.items())), evidence_with_cards, took,
             live_seen, journalled, asked))
    for role in clients:
        for where in ("events", "hub downstream", "control replay", "hub control snapshot"):
            assert per_role.get(role + " " + where), "the %s role received nothing on %s: the test saw nothing" % (role, where)
    assert evidence_with_cards > 0, "no director evidence reply named a card: the detector or `evidence` is broken"
    if "play-fouled-board.scn" in scenarios:
        assert fouled_dq, "the fouled board's evidence for directors does not name \u2666Q (DQ)"
    if leaks:
        print("%d card identities (or live events) before the embargo:" % len(leaks))
        for line in leaks[:40]:
            print("  " + line)
        sys.exit(1)
    print("sealed roles: no card identity before the embargo, for any role")


if __name__ == "__main__":
    main()
