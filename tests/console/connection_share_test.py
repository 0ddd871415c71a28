#!/usr/bin/python3
"""One client on the venue network cannot take every connection of the console.

  usage: connection_share_test.py BUILD_DIR SOURCE_DIR

A hostile client (127.0.0.2 here: any source in 127/8 reaches the loopback console) holds as many idle
connections as it can, each sending a header line now and then and never ending its request (slowloris),
and opens new ones as the console drops old ones. Before, it held all --max-connections and the director
(127.0.0.1) could neither log in nor open the page: newcomers were closed without a word. Now each address
has --max-connections-per-address; the one over it is told why (503) and the console's log says so."""
import http.client
import json
import os
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from venue import Venue


class Slowloris(threading.Thread):
    def __init__(self, port, source, want):
        super().__init__(daemon=True)
        self.port, self.source, self.want, self.held, self.refusals, self.stop = port, source, want, [], [], False

    def run(self):
        while not self.stop:
            while len(self.held) < self.want and not self.stop:
                try:
                    s = socket.create_connection(("127.0.0.1", self.port), timeout=2, source_address=(self.source, 0))
                    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    self.held.append(s)
                except OSError:
                    break
            for s in list(self.held):
                try:
                    s.setblocking(False)
                    try:
                        got = s.recv(4096)
                    except BlockingIOError:
                        got = None
                    s.setblocking(True)
                    if got is not None:  # answered (a refusal) or closed: a new one takes its place
                        if got:
                            self.refusals.append(got)
                        s.close()
                        self.held.remove(s)
                        continue
                    s.sendall(b"X-a: b\r\n")
                except OSError:
                    s.close()
                    self.held.remove(s)
            time.sleep(0.5)


def login(port, source):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(source, 0))
    c.request("POST", "/api/login", json.dumps({"name": "td", "password": "td-secret"}),
              {"Content-Type": "application/json", "X-Cardtable": "1"})
    r = c.getresponse()
    r.read()
    return r.status


def main():
    build, source = sys.argv[1], sys.argv[2]
    venue = Venue(build, source, console_args=["--max-connections", "64", "--max-connections-per-address", "16"])
    attacker = None
    try:
        venue.start_console()
        attacker = Slowloris(venue.port, "127.0.0.2", 100)
        attacker.start()
        time.sleep(2)
        results = []
        for _ in range(10):
            try:
                results.append(login(venue.port, "127.0.0.1"))
            except OSError as e:
                results.append(repr(e))
            time.sleep(0.3)
        attacker.want = 0  # no new ones: those refused are seen to be closed, those held stay
        time.sleep(1.5)
        held = len(attacker.held)
        print(f"the attacker holds {held} connections; the director's logins: {results}")
        assert results == [200] * 10, f"the director logs in while another address floods: {results}"
        assert held <= 16, f"one address holds at most --max-connections-per-address: {held}"
        refusal = next((r for r in attacker.refusals if r.startswith(b"HTTP/1.1 503")), None)
        assert refusal and b"too many connections from 127.0.0.2" in refusal, f"the refused client is told why: {attacker.refusals[:1]}"
        attacker.stop = True
        attacker.join()
        log = open(f"{venue.dir}/console.log").read()
        assert "127.0.0.2" in log and "--max-connections-per-address" in log, "the log names the address refused: " + log[-400:]
        return 0
    finally:
        if attacker:
            attacker.stop = True
            for s in attacker.held:
                s.close()
        venue.close()


if __name__ == "__main__":
    sys.exit(main())
