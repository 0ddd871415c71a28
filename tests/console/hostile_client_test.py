#!/usr/bin/python3
"""The console as a hostile client on the venue's network tries it: the real cardtable-console, fed by a
real hub and a real cardtabled, on an ephemeral loopback port. Each probe must get a clear error (or be
dropped, where the client is the attack), leak nothing, and leave the console serving everyone else: after
every probe a bystander (another loopback address) loads the page and logs in.

  usage: hostile_client_test.py BUILD_DIR SOURCE_DIR

Probes: oversized request lines, headers and bodies; a request cut off halfway (a bad link: 408); a slowloris
holding every connection its address may have; many addresses filling every connection (a director still gets in); WebSocket handshakes and frames (the console serves none); path traversal
in the page's URLs; bad JSON in every POST; a login brute force; and, before any login or with the wrong
role, every request that could give a hand before its embargo."""
import json
import os
import socket
import sys
import threading
import time
import http.client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue, wait_for

PER_ADDRESS, MAX_CONNECTIONS = 8, 48
BYSTANDER = "127.0.0.3"  # a director elsewhere on the network
RESULTS = []


def probe(name):
    def run(f):
        print(f"probe: {name}", flush=True)
        try:
            outcome = f()
            RESULTS.append((name, True, outcome))
        except AssertionError as e:
            RESULTS.append((name, False, str(e)))
        return f
    return run


def connect(port, source="127.0.0.1", timeout=10):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
    return s


def read_all(s, limit=1 << 20):
    out = b""
    try:
        while len(out) < limit:
            b = s.recv(65536)
            if not b:
                break
            out += b
    except (socket.timeout, ConnectionResetError):
        pass
    return out


def raw(port, data, source="127.0.0.1"):
    s = connect(port, source)
    try:
        s.sendall(data)
    except (BrokenPipeError, ConnectionResetError):
        pass  # refused before all of it was sent: what matters is what came back
    out = read_all(s)
    s.close()
    return out


def status_of(response):
    return int(response.split(b" ", 2)[1]) if response.startswith(b"HTTP/1.1 ") else None


def body_of(response):
    return response.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in response else b""


def request(port, method, path, body=None, headers=None, source="127.0.0.1"):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    c.request(method, path, body, headers or {})
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, data, r


def post_json(port, path, body, cookie="", source="127.0.0.1"):
    headers = {"Content-Type": "application/json", "X-Cardtable": "1"}
    if cookie:
        headers["Cookie"] = cookie
    return request(port, "POST", path, body, headers, source)


def login(port, name, password, source="127.0.0.1"):
    st, body, r = post_json(port, "/api/login", json.dumps({"name": name, "password": password}), source=source)
    cookie = (r.getheader("Set-Cookie") or "").split(";")[0]
    return st, body, cookie, r


def bystander_served(venue):
    """The console is up and serves someone else: the page, and a director's login."""
    assert venue.console.poll() is None, "the console died"
    st, body, _ = request(venue.port, "GET", "/", source=BYSTANDER)
    assert st == 200 and b"console.js" in body, f"a bystander's page: {st}"
    st, _, cookie, _ = login(venue.port, "td", "td-secret", source=BYSTANDER)
    assert st == 200 and cookie, f"a bystander's login: {st}"


def stream_text(port, cookie, path, seconds):
    """What an event stream sends in its first seconds (its snapshot and what follows): (status, text)."""
    s = connect(port)
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\nAccept: text/event-stream\r\n\r\n".encode())
    s.settimeout(0.5)
    text, end = b"", time.time() + seconds
    while time.time() < end:
        try:
            b = s.recv(65536)
            if not b:
                break
            text += b
        except socket.timeout:
            continue
    s.close()
    return status_of(text), text.decode("utf-8", "replace")


def main():
    build, source = sys.argv[1], sys.argv[2]
    sc = f"{source}/tests/scenarios"
    venue = Venue(build, source, tables=[(1, f"{sc}/play-clean-board.scn", 8)],
                  console_args=["--max-connections", str(MAX_CONNECTIONS), "--max-connections-per-address", str(PER_ADDRESS),
                                "--max-streams", "8"])
    try:
        venue.start_console()
        # The board is played now and stays under embargo for an hour: no hand of it may reach anyone.
        venue.start_table(1, embargo=3600)
        port = venue.port
        bystander_served(venue)

        @probe("oversized request line, header, header count and body")
        def _():
            seen = []
            for what, data, want in [
                    ("a 20 KB request line", b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 431),
                    ("a 100 KB header", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 100000 + b"\r\n\r\n", 431),
                    ("2,000 small headers", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-A: b\r\n" * 2000 + b"\r\n", 431),
                    ("a 1 MB body announced", b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"X-Cardtable: 1\r\nContent-Length: 1048576\r\n\r\n" + b"a" * 1048576, 413),
                    ("a 100 KB chunked body", b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"X-Cardtable: 1\r\nTransfer-Encoding: chunked\r\n\r\n" + (b"1000\r\n" + b"a" * 4096 + b"\r\n") * 25 + b"0\r\n\r\n", 413)]:
                got = raw(port, data)
                assert status_of(got) == want and b'"error"' in body_of(got), f"{what}: {got[:120]!r}"
                seen.append(f"{what}: {want}")
            bystander_served(venue)
            return "; ".join(seen)

        @probe("malformed and smuggling requests")
        def _():
            seen = []
            for what, data in [("garbage", b"\x16\x03\x01\x00\xff" + b"\x00" * 100 + b"\r\n\r\n"),
                               ("HTTP/2 preface", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
                               ("two Content-Lengths", b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nContent-Length: 40\r\n\r\n{}"),
                               ("Content-Length and chunked", b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\n"
                                b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
                               ("a NUL in the target", b"GET /\x00../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
                               ("a bad chunk size", b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")]:
                got = raw(port, data)
                assert status_of(got) == 400 and got.count(b"HTTP/1.1 ") == 1, f"{what}: {got[:200]!r}"
                seen.append(f"{what}: 400")
            bystander_served(venue)
            return "; ".join(seen)

        @probe("path traversal in the page's URLs")
        def _():
            paths = ["/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd", "//etc/passwd",
                     "/index.html/../../../main.cpp", "/..\\..\\main.cpp", "/%2e%2e%5c%2e%2e%5cmain.cpp", "/console.js%00.html",
                     "/./index.html/..", "/CMakeLists.txt", "/README.md", "/../console/main.cpp", "/www/console.js",
                     "http://127.0.0.1/../../etc/passwd"]
            answers = {}
            for p in paths:
                got = raw(port, f"GET {p} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
                answers[p] = status_of(got)
                assert status_of(got) in (400, 404), f"{p}: {got[:200]!r}"
                assert b"root:" not in got and b"#include" not in got and b"cmake" not in got.lower(), f"{p} leaked a file: {got[:300]!r}"
            bystander_served(venue)
            return ", ".join(f"{p} {s}" for p, s in answers.items())

        @probe("WebSocket handshakes and frames (the console serves none)")
        def _():
            upgrade = (b"GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            seen = []
            got = raw(port, upgrade % b"/api/stream")
            assert status_of(got) == 401, f"an upgrade of the venue stream without a login: {got[:200]!r}"
            seen.append("upgrade /api/stream without login: 401")
            # A frame after a handshake the console answered as plain HTTP: read as the next request.
            masked = b"\x81\x85\x37\xfa\x21\x3d\x7f\x9f\x4d\x51\x58"  # "Hello", masked, as a browser sends it
            got = raw(port, upgrade % b"/" + masked)
            assert status_of(got) == 200 and b"101 Switching" not in got, f"an upgrade of the page: {got[:200]!r}"
            assert got.count(b"HTTP/1.1 ") == 2 and b"HTTP/1.1 400" in got, f"a frame after it: {got[-300:]!r}"
            seen.append("upgrade / then a frame: 200 (no 101), then 400 and closed")
            # A frame announcing 2^63 bytes, and 64 KB of it.
            huge = b"\x82\xff\x7f\xff\xff\xff\xff\xff\xff\xff" + b"\x00\x00\x00\x00" + b"\xab" * 65536
            got = raw(port, upgrade % b"/" + huge)
            assert got.count(b"HTTP/1.1 ") == 2 and (b"HTTP/1.1 400" in got or b"HTTP/1.1 431" in got), f"a huge frame: {got[-300:]!r}"
            seen.append("a frame of 2^63 bytes: " + got.rsplit(b"HTTP/1.1 ", 1)[1][:3].decode())
            st, _, cookie, _ = login(port, "td", "td-secret")
            s = connect(port)  # an event stream: its head, then events for as long as the page is open
            s.sendall((upgrade % b"/api/stream").replace(b"\r\n\r\n", f"\r\nCookie: {cookie}\r\n\r\n".encode()) + masked)
            got = b""
            while b"\r\n\r\n" not in got:
                got += s.recv(65536)
            s.close()
            assert b"101 Switching" not in got and b"text/event-stream" in got, got[:200]
            seen.append("upgrade of the stream with a login: " + got[9:12].decode() + " (no 101)")
            bystander_served(venue)
            return "; ".join(seen)

        @probe("bad JSON in every POST")
        def _():
            st, _, cookie, _ = login(port, "td", "td-secret")
            bad = [b"", b"{", b"[]", b"null", b"42", b'"td"', b'{"name":1,"password":2}', b'{"name":"td"}', b'{"name":"td","password":"td-secret"',
                   b'{"name":"td\xff","password":"x"}', b"[" * 8000 + b"]" * 8000, b'{"a":' * 2500 + b"1" + b"}" * 2500,
                   b'{"table":"default/A/1","seq":-1}', b'{"table":"default/A/1","seq":1e400}', b'{"table":["x"],"seq":1}',
                   b'{"table":"default/A/1","seq":18446744073709551616}', b'{"table":"default/A/1","seq":1,"journal":7}']
            seen = {}
            for path in ["/api/login", "/api/ack", "/api/dismiss"]:
                for b in bad:
                    st, body, _ = post_json(port, path, b, cookie)
                    ok = st in (400, 404, 409) and "error" in json.loads(body)
                    assert ok, f"{path} with {b[:60]!r}: {st} {body[:200]!r}"
                    seen.setdefault(path, set()).add(st)
            bystander_served(venue)
            return "; ".join(f"{p}: {sorted(s)} with an error named" for p, s in seen.items())

        @probe("a login name of 15,000 bytes")
        def _():
            # Each failed login keeps its name for a minute, up to 100,000 of them: names this long held
            # 1.5 GB, and each cost a password check first.
            st, body, _, _ = login(port, "x" * 15000, "guess", "127.0.0.5")
            assert st == 400 and b"256" in body, f"{st} {body[:200]!r}"
            bystander_served(venue)
            return "400 naming the longest name (256 bytes), before any password check"

        @probe("login brute force")
        def _():
            guesser = "127.0.0.4"
            answers = [login(port, "td", f"guess{i}", guesser)[0] for i in range(5)]
            assert answers == [401] * 5, answers
            st, body, _, r = login(port, "td", "guess5", guesser)
            assert st == 429 and r.getheader("Retry-After"), f"the sixth guess: {st}"
            st, _, _, _ = login(port, "td", "td-secret", guesser)
            assert st == 429, f"the right password from the guesser's address: {st}"
            bystander_served(venue)  # the director elsewhere is not locked out by the guesser
            return "five wrong: 401 each; the sixth and the right password from there: 429 with Retry-After; another address logs in"

        @probe("embargoed data before login, with a forged session, with the wrong role")
        def _():
            paths = ["/api/stream", "/api/live-stream", "/api/evidence?table=default/A/1&seq=1", "/api/table?table=default/A/1", "/api/me"]
            seen = []
            for cookie in ["", "ct_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "ct_session=../../etc/passwd", "ct_session="]:
                for p in paths:
                    st, body, _ = request(port, "GET", p, headers={"Cookie": cookie} if cookie else {})
                    assert st == 401 and b"default/A/1" not in body, f"{p} with {cookie!r}: {st} {body[:200]!r}"
                st, body, _ = post_json(port, "/api/ack", b'{"table":"default/A/1","seq":1}', cookie)
                assert st == 401, f"an ack with {cookie!r}: {st}"
            seen.append("no login or a forged session: 401 for every stream, evidence, table, ack")
            st, _, vu, _ = login(port, "vugraph", "vu-secret")
            for p in paths[:1] + paths[2:4]:
                st, body, _ = request(port, "GET", p, headers={"Cookie": vu})
                assert st == 403, f"{p} as a broadcaster: {st} {body[:200]!r}"
            seen.append("a broadcaster's evidence, table, venue stream: 403")
            return "; ".join(seen)

        @probe("a slowloris from one address, then connections past the cap")
        def _():
            attacker, held = "127.0.0.2", []
            for _ in range(PER_ADDRESS):
                s = connect(port, attacker, timeout=30)
                s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                held.append(s)
            time.sleep(0.3)
            got = raw(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", attacker)
            assert status_of(got) == 503 and b"max-connections-per-address" in got, f"the attacker's next connection: {got[:200]!r}"
            start = time.time()
            stop = threading.Event()

            def dribble():  # a byte a second on each: never a whole request
                while not stop.is_set():
                    for s in held:
                        try:
                            s.send(b"a")
                        except OSError:
                            pass
                    stop.wait(1)
            t = threading.Thread(target=dribble, daemon=True)
            t.start()
            bystander_served(venue)  # while the attacker holds all its connections
            closed_after, answers = [], []
            for s in held:
                s.settimeout(30)
                answers.append(status_of(read_all(s)))
                closed_after.append(time.time() - start)
            stop.set()
            assert max(closed_after) < 20, f"the slowloris connections were held {max(closed_after):.1f} s"
            assert answers == [408] * PER_ADDRESS, f"a request that never ends is told why: {answers}"
            for s in held:
                s.close()
            bystander_served(venue)
            return (f"{PER_ADDRESS} slow connections: the next from that address 503; a bystander served meanwhile; each answered 408 "
                    f"and dropped after {min(closed_after):.1f}-{max(closed_after):.1f} s")

        @probe("a request cut off halfway (a bad link)")
        def _():
            line = "127.0.0.6"
            head = connect(port, line, timeout=30)
            head.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/html\r\n")  # no blank line: the head goes on
            body = connect(port, line, timeout=30)
            body.sendall(b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Cardtable: 1\r\n"
                         b"Content-Length: 100\r\n\r\n{\"name\":\"td\",")  # 14 bytes of 100
            idle = connect(port, line, timeout=30)  # nothing sent: no request to answer
            kept = connect(port, line, timeout=30)  # a request answered, then nothing: an idle keep-alive
            kept.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            start, seen = time.time(), []
            for what, s, want in [("half a head", head, 408), ("half a body", body, 408), ("nothing", idle, None),
                                  ("an idle keep-alive", kept, 200)]:
                got = read_all(s)
                took = time.time() - start
                s.close()
                assert took < 20, f"{what}: held {took:.1f} s"
                assert got.count(b"HTTP/1.1 ") == (want is not None) and status_of(got) == want, f"{what}: {got[:300]!r}"
                if want == 408:
                    assert b"\r\nConnection: close\r\n" in got and b"within 15 s" in body_of(got), f"{what}: {got[:400]!r}"
                seen.append(f"{what}: {want or 'closed without a word'} after {took:.1f} s")
            bystander_served(venue)
            return "; ".join(seen)

        @probe("many addresses fill every connection: a director still gets in")
        def _():
            # A director's page is open; then connections from 40 addresses, each within its own limit, take every
            # one left and never finish a request. Every director was refused 503 until they timed out.
            st, _, td, _ = login(port, "td", "td-secret", BYSTANDER)
            page = connect(port, BYSTANDER)
            page.sendall(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {td}\r\nAccept: text/event-stream\r\n\r\n".encode())
            got = b""
            while b"\r\n\r\n" not in got:
                got += page.recv(65536)
            assert b"text/event-stream" in got, got[:200]
            many = []
            for i in range(MAX_CONNECTIONS):
                s = connect(port, f"127.0.1.{i % 40 + 1}", timeout=10)
                if i % 2:
                    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                many.append(s)
            time.sleep(0.3)
            bystander_served(venue)  # the page and a login: two newcomers, each closing the oldest waiting connection
            first, second = read_all(many[0]), read_all(many[1])
            assert first == b"", f"the oldest, which sent nothing, is closed without a word: {first[:200]!r}"
            assert status_of(second) == 503 and b"--max-connections " in body_of(second), f"the next, half a request: {second[:300]!r}"
            page.settimeout(0.5)
            try:
                assert page.recv(65536) != b"", "the director's open page was closed for room"
            except socket.timeout:
                pass  # open, and nothing to say
            page.close()
            for s in many:
                s.close()
            wait_for("the console to serve after the flood", lambda: request(port, "GET", "/", source=BYSTANDER)[0] == 200, 10)
            bystander_served(venue)
            return (f"{MAX_CONNECTIONS} connections from 40 addresses never finishing a request: a director's page and login served, "
                    "the oldest waiting closed for them (503 to one that had sent part of a request); the open page stays")

        @probe("every connection an open page: a newcomer is refused")
        def _():
            import re
            import subprocess
            argv = venue.console_argv()
            argv = argv[:len(argv) - len(venue.console_args)] + ["--max-connections", "2", "--max-connections-per-address", "2",
                                                                 "--max-streams", "2"]
            small = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=open(f"{venue.dir}/console-small.log", "w"), text=True)
            venue.procs.append(small)  # stopped with the venue
            m = re.search(r"http://127\.0\.0\.1:(\d+)/", small.stdout.readline())
            assert m, "the second console did not start"
            small_port = int(m.group(1))
            st, _, td, _ = login(small_port, "td", "td-secret", "127.0.0.9")
            pages = []
            for i in range(2):
                s = connect(small_port, f"127.0.0.{7 + i}")
                s.sendall(f"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {td}\r\n\r\n".encode())
                assert s.recv(12).startswith(b"HTTP/1.1 200"), "a page within the limits"
                pages.append(s)
            got = raw(small_port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "127.0.2.1")
            assert status_of(got) == 503 and b"--max-connections " in got, f"past the cap, only pages open: {got[:200]!r}"
            for s in pages:
                s.close()
            return "2 open pages of --max-connections 2: the newcomer 503 naming the limit, the pages stay"

        @probe("no hand before its embargo, to anyone")
        def _():
            deal = "A54.QJ85.AT75.63 QJT83.K3.93.J854 72.A9742.Q84.T72 K96.T6.KJ62.AKQ9"  # Spring Pairs board 1 (the master record)
            st, _, td, _ = login(port, "td", "td-secret")
            st, _, vu, _ = login(port, "vugraph", "vu-secret")
            wait_for("table 1's board returned", lambda: json.loads(request(port, "GET", "/api/table?table=default/A/1",
                                                                             headers={"Cookie": td})[1]).get("tile", {}).get("state") == "done", 30)
            st, live = stream_text(port, vu, "/api/live-stream", 2)
            assert st == 200 and "snapshot" in live, f"the broadcaster's stream: {st} {live[:200]}"
            st, venue_stream = stream_text(port, td, "/api/stream", 2)
            assert st == 200 and "default/A/1" in venue_stream
            for who, text in [("the broadcaster's stream", live), ("the director's stream", venue_stream)]:
                for hand in deal.split():
                    assert hand not in text, f"{who} holds the hand {hand} under embargo"
                assert "live." not in text and '"deal"' not in text, f"{who}: {text[:300]}"
            return "the board played and returned under a 1 h embargo: neither role's stream holds a hand or a live event"

        @probe("plain HTTP and garbage on the HTTPS port")
        def _():
            import re
            import ssl
            import subprocess
            subprocess.run([f"{build}/console/cardtable-console", "make-cert", "--dir", venue.dir, "--name", "127.0.0.1"], check=True,
                           capture_output=True)
            argv = venue.console_argv() + ["--tls-cert", f"{venue.dir}/console.crt", "--tls-key", f"{venue.dir}/console.key"]
            tls = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=open(f"{venue.dir}/console-tls.log", "w"), text=True)
            venue.procs.append(tls)  # stopped with the venue
            m = re.search(r"https://127\.0\.0\.1:(\d+)/", tls.stdout.readline())
            assert m, "the HTTPS console did not start"
            tls_port = int(m.group(1))
            ctx = ssl.create_default_context()
            ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
            half = ctx.wrap_socket(connect(tls_port, timeout=30), server_hostname="127.0.0.1")
            half.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and no more: a bad link
            half_sent = time.time()
            # A director who typed http:// (or a scanner): it closed the connection without a word, and the
            # browser said only "empty response".
            got = raw(tls_port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert status_of(got) == 400 and b"https://" in body_of(got), f"plain HTTP on the HTTPS port: {got[:300]!r}"
            got = raw(tls_port, b"\x00" * 64)
            assert got == b"" or status_of(got) == 400, f"garbage on the HTTPS port: {got[:200]!r}"
            with ctx.wrap_socket(connect(tls_port), server_hostname="127.0.0.1") as s:
                s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                page = read_all(s)
            assert status_of(page) == 200 and b"console.js" in page, f"the page over HTTPS after them: {page[:200]!r}"
            cut_off = b""
            try:
                while chunk := half.recv(65536):
                    cut_off += chunk
            except (ssl.SSLError, socket.timeout, ConnectionResetError):
                pass  # closed without a TLS close_notify: what came before it is what counts
            half.close()
            assert status_of(cut_off) == 408 and b"Connection: close" in cut_off, f"half a request over TLS: {cut_off[:300]!r}"
            assert time.time() - half_sent < 20, "half a request over TLS held past its deadline"
            assert tls.poll() is None, "the HTTPS console died"
            return "plain HTTP: 400 naming https://; garbage: closed; the page over HTTPS still served; half a request over TLS: 408"

        for name, ok, outcome in RESULTS:
            print(f"{'held' if ok else 'FAILED'}: {name}: {outcome}")
        assert venue.console.poll() is None, "the console is still running"
        failed = [name for name, ok, _ in RESULTS if not ok]
        assert not failed, f"probes failed: {failed}"
        return 0
    finally:
        venue.close()


if __name__ == "__main__":
    sys.exit(main())
