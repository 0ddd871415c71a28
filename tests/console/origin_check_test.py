#!/usr/bin/python3
"""Cross-site requests at the real console: a hostile page a logged-in director visits can send the
console requests with the director's cookie. A state-changing request (a POST) whose Origin, or without
Origin whose Referer, is not the console's own (scheme, host and port of the request's Host) or an
--allowed-origin is refused with 403 and a log line, and changes nothing; the console's own origin, and a
client that names none (curl), pass. A cross-site EventSource (it names its origin) gets no stream.
  usage: origin_check_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import subprocess
import sys
import http.client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue, wait_for

PROXY = "https://console.venue.lan"


def send(port, method, path, headers=None, body=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    h = {"Content-Type": "application/json", "X-Cardtable": "1"} if method == "POST" else {}
    h.update(headers or {})
    c.request(method, path, body, h)
    r = c.getresponse()
    data = r.read() if method == "POST" or r.status != 200 else b""
    c.close()
    return r.status, data


def main():
    build, source = sys.argv[1], sys.argv[2]
    venue = Venue(build, source, console_args=["--allowed-origin", PROXY + ":443/"])
    try:
        venue.start_console()
        own = f"http://127.0.0.1:{venue.port}"
        login = json.dumps({"name": "td", "password": "td-secret"})
        st, _, td = venue.login("td", "td-secret")
        assert st == 200, "a client that names no origin (curl, a script) is not a browser: it passes"

        # The hostile page: its Origin, or its Referer, or "null" from a sandboxed frame.
        for headers in [{"Origin": "http://evil.example"}, {"Origin": "null"}, {"Referer": "http://evil.example/page"},
                        {"Origin": f"http://127.0.0.1:{venue.port + 1}"}, {"Origin": f"https://127.0.0.1:{venue.port}"}]:
            st, body = send(venue.port, "POST", "/api/login", headers, login)
            assert st == 403 and b"is not this console's" in body, (headers, st, body)
        st, body = send(venue.port, "POST", "/api/logout", {"Origin": "http://evil.example", "Cookie": td}, "{}")
        assert st == 403, (st, body)
        assert send(venue.port, "GET", "/api/me", {"Cookie": td})[0] == 200, "the refused logout ended nothing"
        st, body = send(venue.port, "POST", "/api/ack", {"Origin": "http://evil.example", "Cookie": td},
                        json.dumps({"table": "default/A/1", "seq": 1}))
        assert st == 403, (st, body)
        # A cross-site EventSource: no stream, whatever the cookie.
        assert send(venue.port, "GET", "/api/stream", {"Origin": "http://evil.example", "Cookie": td})[0] == 403
        # The page itself is public: a foreign Origin on it is no request to refuse.
        assert send(venue.port, "GET", "/", {"Origin": "http://evil.example"})[0] == 200

        # The console's own origin passes, as does an --allowed-origin (a reverse proxy's public name).
        for headers in [{"Origin": own}, {"Referer": own + "/"}, {"Origin": PROXY}]:
            st, body = send(venue.port, "POST", "/api/login", headers, login)
            assert st == 200, (headers, st, body)
        st, body = send(venue.port, "POST", "/api/ack", {"Origin": own, "Cookie": td}, json.dumps({"table": "default/A/1", "seq": 1}))
        assert st == 404 and b"no control endpoint" in body, ("past the check, to the gateway", st, body)
        st, _ = send(venue.port, "POST", "/api/logout", {"Origin": own, "Cookie": td}, "{}")
        assert st == 200 and send(venue.port, "GET", "/api/me", {"Cookie": td})[0] == 401

        # The log says what was refused, from where and why (one line, then a count: a page sending in a
        # loop must not fill it).
        log = lambda: open(f"{venue.dir}/console.log").read()
        wait_for("the refusal in the log", lambda: "refused POST /api/login from 127.0.0.1 (403" in log(), 5)
        assert "Origin http://evil.example is not this console's" in log(), log()
        assert log().count("(403, a request from another site?)") < 8, "eight refusals, not a line each: " + log()

        # An --allowed-origin that is no origin is refused at start, naming the option.
        r = subprocess.run(venue.console_argv() + ["--allowed-origin", "console.venue.lan"], capture_output=True, text=True, timeout=10)
        assert r.returncode == 2 and "--allowed-origin console.venue.lan: expected SCHEME://HOST[:PORT]" in r.stderr, r.stderr
        r = subprocess.run([venue.console_argv()[0], "--help"], capture_output=True, text=True, timeout=10)
        assert "--allowed-origin" in r.stdout, r.stdout
    finally:
        venue.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
