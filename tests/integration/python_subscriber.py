#!/usr/bin/python3
"""A subscriber that is not ours: Python's zmq module, decoding events by docs/protocol.md alone.

usage: python_subscriber.py PUB_ENDPOINT CONTROL_ENDPOINT MIN_EVENTS
Exits 0 when at least MIN_EVENTS journalled events arrived (live or replayed) and every one obeys the
protocol: a two-frame message, topic = class/tournament/section/table/type, class = the part of type
before the dot, seq gap-free, no null anywhere, and no card identity anywhere (the events endpoint and
replays are sealed until the embargo: docs/protocol.md).
"""
import json
import re
import sys
import time

import zmq

pub, control, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
ctx = zmq.Context()
sub = ctx.socket(zmq.SUB)
sub.connect(pub)
sub.setsockopt(zmq.SUBSCRIBE, b"")
req = ctx.socket(zmq.REQ)
req.setsockopt(zmq.RCVTIMEO, 3000)
req.connect(control)


CARD = re.compile(r"(^|[^A-Za-z0-9])[SHDC](10|[2-9TJQKA])($|[^A-Za-z0-9])|[\u2660\u2665\u2666\u2663]|[AKQJT2-9]+\.[AKQJT2-9]*\.[AKQJT2-9]*\.")
NAMES = {"tournament", "section", "table", "event", "session", "type", "class"}


def strings(value, key=""):
    if isinstance(value, str):
        if key not in NAMES:
            yield key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v, key)


def sealed(event):
    for key, text in strings(event):
        assert not CARD.search(text), "a card identity before the embargo: %s = %r" % (key, text)
    assert "card_message" not in event and "card_evidence" not in event, event


def check(topic, event):
    sealed(event)
    assert "null" not in json.dumps(event), "a null field: " + json.dumps(event)
    cls = event["type"].split(".")[0]
    assert event["class"] == cls, event
    expected = "/".join([cls, event["tournament"], event["section"], event["table"], event["type"]])
    assert topic == expected, (topic, expected)
    assert event["severity"] in ("info", "warning", "alert"), event
    assert isinstance(event["time"], float) and isinstance(event["mono"], float), event


seen = {}
deadline = time.time() + 6  # then whatever came before the connection is replayed
while time.time() < deadline and len(seen) < want:
    if sub.poll(200):
        frames = sub.recv_multipart()
        assert len(frames) == 2, frames
        topic, event = frames[0].decode(), json.loads(frames[1])
        check(topic, event)
        if "seq" in event:
            seen[event["seq"]] = event
# What was published before we connected comes from the journal.
req.send_json({"command": "replay", "since": 1})
reply = req.recv_json()
assert reply["ok"], reply
for event in reply["events"]:
    sealed(event)
    seen.setdefault(event["seq"], event)
seqs = sorted(seen)
assert seqs == list(range(1, len(seqs) + 1)), "gap in seq: %s" % seqs[:50]
assert len(seqs) >= want, "only %d events" % len(seqs)
print("python subscriber: %d events, seq 1..%d, all by the protocol" % (len(seqs), seqs[-1]))
