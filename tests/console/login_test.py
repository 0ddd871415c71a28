#!/usr/bin/python3
"""Logins and roles at the console: a wrong password is refused, five in a minute from one address stop
even a right one (429 with Retry-After); a session is an HttpOnly SameSite cookie; the broadcaster's live
stream refuses a director and the venue stream refuses a broadcaster; off loopback the console needs
HTTPS, and a certificate from `cardtable-console make-cert` serves it.
  usage: login_test.py BUILD_DIR SOURCE_DIR"""
import json
import os
import re
import ssl
import subprocess
import sys
import http.client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue


def get(port, path, cookie="", tls=False):
    c = (http.client.HTTPSConnection("127.0.0.1", port, timeout=10, context=ssl._create_unverified_context()) if tls
         else http.client.HTTPConnection("127.0.0.1", port, timeout=10))
    c.request("GET", path, headers={"Cookie": cookie} if cookie else {})
    r = c.getresponse()
    return r.status, dict(r.getheaders())


def open_stream(port, path, cookie):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("GET", path, headers={"Cookie": cookie, "Accept": "text/event-stream"})
    return c, c.getresponse()


def main():
    build, source = sys.argv[1], sys.argv[2]
    console = f"{build}/console/cardtable-console"
    venue = Venue(build, source, console_args=["--max-streams", "2"])
    try:
        venue.start_console()
        # The broadcaster logs in; the cookie carries the session, never the URL.
        st, body, cookie = venue.login("vugraph", "vu-secret")
        assert st == 200 and body["role"] == "broadcaster"
        raw_cookie = cookie
        assert re.fullmatch(r"ct_session=[0-9a-f]{64}", raw_cookie), raw_cookie
        assert get(venue.port, "/api/stream", cookie)[0] == 403, "the venue stream is for directors"
        assert get(venue.port, "/api/table?table=default/A/1", cookie)[0] == 403
        # The director's session is refused by the broadcaster's live stream.
        st, body, td = venue.login("td", "td-secret")
        assert st == 200 and body["role"] == "director"
        assert get(venue.port, "/api/live-stream", td)[0] == 403, "hands never go to a director's session"
        # The session is found in any Cookie header a client sends, not only the first.
        c = http.client.HTTPConnection("127.0.0.1", venue.port, timeout=10)
        c.putrequest("GET", "/api/me")
        c.putheader("Cookie", "theme=dark")
        c.putheader("Cookie", td)
        c.endheaders()
        r = c.getresponse()
        assert r.status == 200 and json.loads(r.read())["role"] == "director", f"second Cookie header: {r.status}"
        # Only a JSON media type passes the request check: a text/plain body with "application/json" in a
        # parameter passed a substring test; the type itself is read without case, before its parameters.
        for content_type, wanted in [("text/plain; x=application/json", 403), ("Application/JSON; charset=utf-8", 200)]:
            c = http.client.HTTPConnection("127.0.0.1", venue.port, timeout=10)
            c.request("POST", "/api/login", json.dumps({"name": "td", "password": "td-secret"}),
                      {"Content-Type": content_type, "X-Cardtable": "1"})
            assert c.getresponse().status == wanted, content_type
        # Each role has its own --max-streams (2 here): a broadcaster's pages filled the one pool and every
        # director got 503 "too many open pages".
        pages = [open_stream(venue.port, "/api/live-stream", cookie) for _ in range(2)]
        assert all(p[1].status == 200 for p in pages), [p[1].status for p in pages]
        third = open_stream(venue.port, "/api/live-stream", cookie)
        assert third[1].status == 503, third[1].status
        director_page = open_stream(venue.port, "/api/stream", td)
        assert director_page[1].status == 200, "a director's page opens beside the broadcaster's full share"
        # Logging out closes the pages still open with that login (another tab, a copied cookie): they went
        # on receiving the venue after /api/me said 401.
        c = http.client.HTTPConnection("127.0.0.1", venue.port, timeout=10)
        c.request("POST", "/api/logout", "{}", {"Cookie": cookie, "Content-Type": "application/json", "X-Cardtable": "1"})
        assert c.getresponse().status == 200
        for conn, resp in pages:
            while resp.read1(65536):
                pass  # until the console closes it; a socket timeout fails the test
        for conn, resp in pages + [third, director_page]:
            conn.close()
        # Wrong passwords: refused, then limited; the right password is limited too until the window passes.
        for i in range(5):
            st, body, c = venue.login("td", f"guess-{i}")
            assert st == 401 and not c, f"attempt {i}: {st}"
        st, body, c = venue.login("td", "guess-6")
        assert st == 429 and body["retry_after"] > 0, (st, body)
        st, body, c = venue.login("td", "td-secret")
        assert st == 429 and not c, "rate-limited even with the right password"
        st, body, c = venue.login("nobody", "x")
        assert st == 429, "the limit is per address too"
        # Logging out ends the session.
        c = http.client.HTTPConnection("127.0.0.1", venue.port, timeout=10)
        c.request("POST", "/api/logout", "{}", {"Cookie": td, "Content-Type": "application/json", "X-Cardtable": "1"})
        assert c.getresponse().status == 200
        assert get(venue.port, "/api/me", td)[0] == 401
    finally:
        venue.close()

    # Off loopback without HTTPS: refused at start.
    r = subprocess.run([console, "--listen", "0.0.0.0:0", "--hub", "ipc:///nonexistent", "--logins", "/dev/null"], capture_output=True, text=True)
    assert r.returncode == 2 and "HTTPS" in r.stderr, r.stderr
    # A bad logins file names its line.
    venue = Venue(build, source)
    try:
        with open(f"{venue.dir}/bad-logins", "w") as f:
            f.write("# staff\ntd director plaintext-password\n")
        r = subprocess.run([console, "--hub", venue.ipc("down"), "--logins", f"{venue.dir}/bad-logins", "--listen", "127.0.0.1:0"],
                           capture_output=True, text=True, timeout=10)
        assert r.returncode == 2 and "bad-logins:2" in r.stderr, r.stderr
        # Options that were taken and served something else: a port over 65535 (99999 served on 34463, -1 on
        # 65535), --max-streams -1 (no limit at all), an endpoint no program can dial (only logged, and the
        # console served pages with no event source), a table given twice; make-cert --days -5 wrote a
        # certificate expired before it was made.
        base = [console, "--hub", venue.ipc("down"), "--logins", venue.logins]
        for extra, says in [(["--listen", "127.0.0.1:99999"], "--listen 127.0.0.1:99999: the port is 0 to 65535"),
                            (["--listen", "127.0.0.1:-1"], "--listen 127.0.0.1:-1: the port is 0 to 65535"),
                            (["--max-streams", "-1"], "--max-streams must be 1 to --max-connections"),
                            (["--allowance", "-5"], "--allowance must be above 0 seconds"),
                            (["--events", "bogus://x"], "--events 'bogus://x': expected"),
                            (["--table", "default/A/1 control=bogus://x"], "--table control= 'bogus://x': expected"),
                            (["--table", "default/A/1", "--table", "default/A/1"], "--table default/A/1 is given twice"),
                            (["stray"], "too many positional options")]:
            listen = [] if "--listen" in extra else ["--listen", "127.0.0.1:0"]
            r = subprocess.run(base + listen + extra, capture_output=True, text=True, timeout=10)
            assert r.returncode == 2 and says in r.stderr, (extra, r.returncode, r.stderr)
        r = subprocess.run([console, "make-cert", "--dir", f"{venue.dir}/expired", "--days", "-5"], capture_output=True, text=True)
        assert r.returncode == 2 and "make-cert --days -5: 1 to 3650" in r.stderr, r.stderr
        assert not os.path.exists(f"{venue.dir}/expired/console.crt")
        # A page folder that is not there is named (it was a raw "directory iterator cannot open directory").
        r = subprocess.run([console, "--hub", venue.ipc("down"), "--logins", venue.logins, "--listen", "127.0.0.1:0",
                            "--www", f"{venue.dir}/no-www"], capture_output=True, text=True, timeout=10)
        assert r.returncode == 2 and f"--www {venue.dir}/no-www: no such folder" in r.stderr, r.stderr
        # With no --www, run from the build tree as the README's examples are, it serves the source tree's
        # page (it looked only in /usr/share/cardtable/console and did not start before a package was installed).
        p = venue.start([console, "--listen", "127.0.0.1:0", "--hub", venue.ipc("down"), "--logins", venue.logins], "console")
        line = p.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m, line
        st, _ = get(int(m.group(1)), "/")
        assert st == 200, st
        p.terminate()
        p.wait(timeout=10)
        # HTTPS with a self-signed certificate from make-cert.
        r = subprocess.run([console, "make-cert", "--dir", f"{venue.dir}/tls", "--name", "localhost", "--name", "127.0.0.1"],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        assert oct(os.stat(f"{venue.dir}/tls/console.key").st_mode & 0o777) == "0o600"
        venue.console_args = ["--tls-cert", f"{venue.dir}/tls/console.crt", "--tls-key", f"{venue.dir}/tls/console.key"]
        argv_console = venue.start_console
        # start_console expects the http:// line; read the https one here.
        p = venue.start([console, "--listen", "127.0.0.1:0", "--hub", venue.ipc("down"), "--logins", venue.logins, "--www",
                         f"{source}/console/www"] + venue.console_args, "console")
        line = p.stdout.readline()
        port = int(re.search(r"https://127\.0\.0\.1:(\d+)/", line).group(1))
        st, headers = get(port, "/", tls=True)
        assert st == 200 and "max-age" in headers.get("Strict-Transport-Security", ""), headers
        c = http.client.HTTPSConnection("127.0.0.1", port, timeout=10, context=ssl._create_unverified_context())
        c.request("POST", "/api/login", '{"name":"td","password":"td-secret"}', {"Content-Type": "application/json", "X-Cardtable": "1"})
        r = c.getresponse()
        assert r.status == 200 and "; Secure" in r.getheader("Set-Cookie"), r.getheader("Set-Cookie")
        del argv_console
    finally:
        venue.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
