#!/usr/bin/python3
"""Logins at the real console while their passwords are being checked. Each login's PBKDF2 ran on the
one I/O thread that serves every connection, so a login froze every director's and broadcaster's page
for as long, and a burst of logins (even refused ones) for seconds. Checked here with logins of 1,000,000
iterations (0.2 s or more each, where the staff's 200,000 take 40-400 ms) and one of 5,000,000 (the most
a logins file may ask, a second or more: the console's own PBKDF2 loop checks 1,000,000 in 0.2 s on an idle
machine, less than the test's wait for the console to read the login), by order and by count, never by a
clock:
- a page asked for while a login's password is being checked is answered before the login is;
- past the queue of password checks (8 waiting or running), a login is refused at once with 503 and
  Retry-After, and the log says so;
- guesses sent together from one address still stop at five (429), and the right password from a
  clean address still opens.
How long a page waits during a burst is measured by bench/login_burst.py.
  usage: login_queue_test.py BUILD_DIR SOURCE_DIR"""
import os
import select
import sys
import time
import http.client

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue, wait_for, send_login, answer

# Made once with Python's hashlib.pbkdf2_hmac("sha256", b"slow-secret", SALT, ITERATIONS): the test starts
# without spending seconds hashing.
SLOW = {"slowest": "pbkdf2-sha256$5000000$5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a03$"
                   "94553dcab2e16c2a52290d9a5a73ad6fe2be90a18e16a265dae29c1cc79d5ce6",
        "slow": "pbkdf2-sha256$1000000$5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a01$"
                "4fafc6ee141d50102f544a5917b1e98d25a4e876810421bbd566e09461975d18",
        "slow2": "pbkdf2-sha256$1000000$5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a02$"
                 "0a9861d38422750b58e5edd7e6fa87bed561e8a6a8e365008fde973a7e8286b7"}
MOST_PENDING = 8  # Logins::kMostPendingHashes


def main():
    build, source = sys.argv[1], sys.argv[2]
    venue = Venue(build, source)
    try:
        with open(venue.logins, "a") as f:
            for name, h in SLOW.items():
                f.write(f"{name} director {h}\n")
        venue.start_console()

        # A page asked for during a login's password check is served at once, not after it.
        login = send_login(venue.port, "slowest", "slow-secret")
        time.sleep(0.2)  # the console has read the login and started its check
        page = http.client.HTTPConnection("127.0.0.1", venue.port, timeout=120)
        page.request("GET", "/")
        assert page.getresponse().status == 200
        waiting = not select.select([login.sock], [], [], 0)[0]
        assert waiting, "the page was answered only after the login's password check: the I/O thread was hashing"
        assert answer(login)[0] == 200, "and the login opens"

        # A burst from twelve addresses: eight checks wait or run, the other four are refused at once.
        burst = [send_login(venue.port, "slow", f"guess-{i}", f"127.0.0.{i + 2}") for i in range(12)]
        got = [answer(c) for c in burst]
        busy = [g for g in got if g[0] == 503]
        assert len(busy) == 12 - MOST_PENDING and all(int(g[1]) > 0 for g in busy), got
        assert sum(1 for g in got if g[0] == 401) == MOST_PENDING, got
        log = lambda: open(f"{venue.dir}/console.log").read()
        wait_for("the busy refusal in the log", lambda: "refused (503): 8 logins are being checked already" in log(), 5)

        # Eight guesses sent together from one address: five are checked, three meet the limit (429); the
        # right password from there waits too, and from a clean address it opens.
        together = [send_login(venue.port, "slow2", f"guess-{i}", "127.0.0.20") for i in range(8)]
        got = sorted(answer(c)[0] for c in together)
        assert got == [401] * 5 + [429] * 3, got
        assert answer(send_login(venue.port, "slow2", "slow-secret", "127.0.0.20"))[0] == 429
        assert answer(send_login(venue.port, "slow2", "slow-secret", "127.0.0.21"))[0] == 200
    finally:
        venue.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
