#!/usr/bin/python3
"""The console's own secret keys and the public keys it is given, against a real hub and cardtabled
with CURVE. The console read its director and broadcaster keys whatever their mode: a key others on the
machine could read let them act as the venue's director. Now a secret key others can read, or its group
may write, is refused at start, with the file, its mode and the chmod that fixes it, exit status 2; the
service's layout (0600, or 0640 with the console's own group, as cardtabled's keys) starts and works.
Hostile key files (a folder, empty, cut short, garbage, 40 characters that are not Z85) are each refused
naming the file: no crash, no plain text.
  usage: key_files_test.py BUILD_DIR SOURCE_DIR"""
import http.client
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue, wait_for


def refused(venue, argv, *wanted):
    """The console run with argv must stop at once with exit status 2, its error holding every wanted text."""
    r = subprocess.run(argv, capture_output=True, text=True, timeout=20)
    assert r.returncode == 2, f"exit {r.returncode}, wanted 2: {argv}\n{r.stdout}{r.stderr}"
    for w in wanted:
        assert w in r.stderr, f"{w!r} not in the error: {r.stderr}"
    assert "terminate" not in r.stderr and "open http" not in r.stdout, r.stdout + r.stderr
    return r.stderr


def main():
    build, source = sys.argv[1], sys.argv[2]
    venue = Venue(build, source, tables=[(1, f"{source}/tests/scenarios/play-count-after-play.scn", 4)])
    try:
        keys = venue.keys
        for name in ["console-director", "console-broadcaster"]:
            key = f"{keys}/{name}.key"
            for mode in [0o644, 0o604, 0o660, 0o620, 0o606]:
                os.chmod(key, mode)
                refused(venue, venue.console_argv(), f"{key}: ", f"mode {mode:04o}", f"chmod 600 {key}")
            os.chmod(key, 0o600)

        # The public keys it is given: the hub's (--hub-key) and a table's (server-key= in --table).
        good = open(f"{keys}/hub.pub").read().split("public = ")[1][:40]
        os.makedirs(f"{keys}/folder.pub")
        hostile = {"empty.pub": "", "truncated.pub": f"public = {good[:21]}\n", "garbage.pub": bytes(range(256)).decode("latin-1") * 4,
                   "notz85.pub": f"public = {good[:10]}~~~{good[13:]}\n", "long.pub": f"public = {good}{good}\n"}
        for name, text in hostile.items():
            with open(f"{keys}/{name}", "w", encoding="latin-1") as f:
                f.write(text)
        for name in list(hostile) + ["folder.pub", "missing.pub"]:
            f = f"{keys}/{name}"
            argv = venue.console_argv()
            refused(venue, argv[:argv.index("--hub-key") + 1] + [f] + argv[argv.index("--hub-key") + 2:], f"--hub-key", f"{f}: ")
            argv = [a if not a.startswith("default/A/1 ") else a.replace(f"{keys}/table1.pub", f) for a in venue.console_argv()]
            refused(venue, argv, "--table", f"{f}: ")
        # A key option given empty (a config line "hub-key =" left blank) was no CURVE at all.
        for option in ["--hub-key", "--director-key", "--broadcaster-key"]:
            argv = venue.console_argv()
            refused(venue, argv[:argv.index(option) + 1] + [""] + argv[argv.index(option) + 2:], option)

        # The service's layout: 0640, read through the console's own group like cardtabled's keys (a
        # person's cardtablectl would refuse it), then the hub's and the table's CURVE with these keys.
        os.chmod(f"{keys}/console-director.key", 0o640)
        venue.start_console()
        venue.start_table(1)
        status, _, cookie = venue.login("td", "td-secret")
        assert status == 200

        def tile():
            c = http.client.HTTPConnection("127.0.0.1", venue.port, timeout=10)
            c.request("GET", "/api/table?table=default/A/1", headers={"Cookie": cookie})
            return json.loads(c.getresponse().read() or b"{}").get("tile", {})
        wait_for("the table's events through the hub, with the console's director key", lambda: tile().get("last_seq", 0) >= 2, 30)
        print("key files: refused with the chmod; the console's 0640 key worked against the hub and the table")
    finally:
        venue.close()


if __name__ == "__main__":
    main()
