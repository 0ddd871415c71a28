#!/usr/bin/python3
"""DNS rebinding at the real console: a hostile site points its own name at the console's address, and
its page, loaded under that name, talks to the console as its own origin (Origin and Host both the
hostile name: the origin check passes). The console answers only a Host that names it (the address it
listens on; localhost and the loopback addresses on loopback; an --allowed-origin's host): any other
gets 421 and a log line naming the Host, logs nobody in and burns no login attempt.
  usage: host_check_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import subprocess
import sys
import http.client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue, wait_for


def send(port, method, path, host, headers=None, body=None):
    """A request to the console at 127.0.0.1 as a browser addresses it to `host` (http.client sends the
    Host it is given instead of its own)."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    h = {"Host": host}
    if method == "POST":
        h.update({"Content-Type": "application/json", "X-Cardtable": "1", "Content-Length": str(len(body or ""))})
    h.update(headers or {})
    for k, v in h.items():
        c.putheader(k, v)
    c.endheaders((body or "").encode())
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, data, r.getheader("Set-Cookie", "")


def main():
    build, source = sys.argv[1], sys.argv[2]
    venue = Venue(build, source, console_args=["--allowed-origin", "https://console.venue.lan"])
    try:
        venue.start_console()
        port = venue.port
        evil = f"evil.example:{port}"
        right = json.dumps({"name": "td", "password": "td-secret"})
        wrong = json.dumps({"name": "td", "password": "guess"})

        # The rebinding page: same-origin to itself, so Origin names the hostile site as the Host does.
        st, body, cookie = send(port, "POST", "/api/login", evil, {"Origin": f"http://{evil}"}, right)
        assert st == 421 and not cookie, ("a page of evil.example logged in as the director", st, body, cookie)
        assert b"Host evil.example:" in body and b"does not name this console" in body, body
        st, body, _ = send(port, "GET", "/", evil)
        assert st == 421, ("the page read under another site's name", st)
        st, body, _ = send(port, "GET", "/api/me", evil)
        assert st == 421, st
        # Guesses under the hostile name burn none of the five failed logins allowed an address a minute.
        for _ in range(8):
            assert send(port, "POST", "/api/login", evil, {"Origin": f"http://{evil}"}, wrong)[0] == 421
        # A name that only looks like ours, and a request that names no host, are refused as well.
        for host in [f"localhost.evil.example:{port}", f"127.0.0.1.evil.example:{port}"]:
            assert send(port, "GET", "/", host)[0] == 421, host
        assert send(port, "POST", "/api/login", "", {}, right)[0] == 421, "an empty Host names nothing"

        # What the console answers to: its address, localhost (loopback listener), an --allowed-origin's host.
        for host in [f"127.0.0.1:{port}", f"localhost:{port}", f"LocalHost:{port}", "console.venue.lan"]:
            st, body, _ = send(port, "GET", "/", host)
            assert st == 200, (host, st, body)
        st, body, cookie = send(port, "POST", "/api/login", f"127.0.0.1:{port}", {"Origin": f"http://127.0.0.1:{port}"}, right)
        assert st == 200 and cookie.startswith("ct_session="), ("the director's own login, after the refused guesses", st, body)
        st, body, cookie = send(port, "POST", "/api/login", f"localhost:{port}", {"Origin": f"http://localhost:{port}"}, right)
        assert st == 200 and cookie, (st, body)

        # The log names the Host refused, and where from (one line, then a count: a page sends in a loop).
        log = lambda: open(f"{venue.dir}/console.log").read()
        wait_for("the refusal in the log", lambda: "refused POST /api/login from 127.0.0.1 (421" in log(), 5)
        assert f"Host evil.example:{port} does not name this console" in log(), log()
        assert log().count("(421, ") < 4, "a dozen refusals, not a line each: " + log()

        # --help says what the console answers to by default.
        r = subprocess.run([venue.console_argv()[0], "--help"], capture_output=True, text=True, timeout=10)
        helptext = " ".join(r.stdout.split())
        assert "Every request must name the console in its Host" in helptext and "localhost" in helptext, r.stdout
    finally:
        venue.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
