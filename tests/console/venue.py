"""A real venue in a temporary folder for the console's tests: CURVE keys made by cardtablectl keygen, a
cardtable-hub, cardtabled daemons on simulated tables (all on ipc sockets), and cardtable-console on an
ephemeral loopback port. Every process is the real binary from the build tree."""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import http.client
import urllib.parse


class Venue:
    def __init__(self, build, source, tables=(), console_args=(), hub=True, publishers=()):
        self.build, self.source = build, source
        # Every program the venue runs, checked before anything starts: a build without the console (no
        # Boost.Beast) or a missing tool says which, instead of failing half-way with a hub left running.
        for program in ["tools/cardtablectl/cardtablectl", "tools/cardtable-hub/cardtable-hub", "daemon/cardtabled",
                        "console/cardtable-console"]:
            if not os.access(f"{build}/{program}", os.X_OK):
                raise FileNotFoundError(f"venue: {build}/{program} is not built")
        self.dir = tempfile.mkdtemp(prefix="cardtable-console-")
        self.procs = []
        try:
            self._set_up(build, tables, console_args, hub, publishers)
        except BaseException:
            self.close()  # what started is stopped and the folder removed: a failed set-up leaves nothing running
            raise

    def _set_up(self, build, tables, console_args, hub, publishers):
        self.ctl = f"{build}/tools/cardtablectl/cardtablectl"
        self.keys = f"{self.dir}/keys"
        os.makedirs(self.keys)
        # A publisher is a name (it speaks for table 1) or (name, table).
        publishers = [p if isinstance(p, tuple) else (p, 1) for p in publishers]
        for name in ["hub", "director", "broadcaster", "console-director", "console-broadcaster"] + [f"table{t}" for t, _, _ in tables] + [p for p, _ in publishers]:
            subprocess.run([self.ctl, "keygen", name, "--dir", self.keys], check=True, capture_output=True)
        # Who may connect where: the hub admits the tables upstream and the console's director key
        # downstream; each table admits the console's director key (acknowledge) and broadcaster key (live).
        for folder, role, name in [("hub-clients", "director", "console-director"), ("table-clients", "director", "console-director"),
                                   ("table-clients", "broadcaster", "console-broadcaster"), ("table-clients", "hub", "hub")]:
            os.makedirs(f"{self.dir}/{folder}/{role}", exist_ok=True)
            shutil.copy(f"{self.keys}/{name}.pub", f"{self.dir}/{folder}/{role}/")
        # The hub binds each table key to the one table it may speak for: table/TOURNAMENT/SECTION/TABLE.pub.
        # A test publisher speaks for its one table (give it a venue without a daemon at that table).
        os.makedirs(f"{self.dir}/hub-clients/table/default/A", exist_ok=True)
        for name, t in [(f"table{t}", t) for t, _, _ in tables] + publishers:
            shutil.copy(f"{self.keys}/{name}.pub", f"{self.dir}/hub-clients/table/default/A/{t}.pub")
        self.ipc = lambda name: f"ipc://{self.dir}/{name}"
        self.tables = {}
        if hub:
            self.start_hub()
        for t, scenario, speed in tables:
            self.tables[t] = (scenario, speed)
        self.logins = f"{self.dir}/logins"
        with open(self.logins, "w") as f:
            for name, role, password in [("td", "director", "td-secret"), ("vugraph", "broadcaster", "vu-secret")]:
                h = subprocess.run([f"{build}/console/cardtable-console", "hash-password", "--iterations", "1000"], input=password + "\n",
                                   text=True, capture_output=True, check=True).stdout.strip()
                f.write(f"{name} {role} {h}\n")
        self.console_args = list(console_args)

    def start(self, argv, name):
        log = open(f"{self.dir}/{name}.log", "w")
        p = subprocess.Popen(argv, stdout=subprocess.PIPE if name == "console" else log, stderr=log, text=True)
        self.procs.append(p)
        return p

    def start_hub(self, log="hub"):
        self.hub = self.start([f"{self.build}/tools/cardtable-hub/cardtable-hub", "--upstream", self.ipc("up"), "--downstream",
                               self.ipc("down"), "--control", self.ipc("hubctl"), "--curve-secret", f"{self.keys}/hub.key",
                               "--clients", f"{self.dir}/hub-clients"], log)
        return self.hub

    def start_table(self, t, state=None, embargo=0):
        """state: the table's state folder (default state{t} in the venue); another one is a table whose
        journal starts again (its state folder wiped, a spare computer at the table). embargo: seconds
        after the board before its hands are released (0: at once)."""
        scenario, speed = self.tables[t]
        master = os.path.join(os.path.dirname(scenario), "master")
        if not os.path.isdir(master):
            master = os.path.dirname(scenario)
        return self.start([f"{self.build}/daemon/cardtabled", "--master", master, "--simulate", scenario, "--speed", str(speed),
                           "--table", str(t), "--state-dir", state or f"{self.dir}/state{t}", "--publish", "connect:" + self.ipc("up"),
                           "--control", "bind:" + self.ipc(f"ctl{t}"), "--live", "bind:" + self.ipc(f"live{t}"), "--embargo", str(embargo),
                           "--heartbeat", "1", "--curve-secret", f"{self.keys}/table{t}.key", "--clients", f"{self.dir}/table-clients",
                           "--hub-key", f"{self.keys}/hub.pub"], f"table{t}")

    def console_argv(self, port=0):
        """The console's command line for this venue: the hub, its keys, every table (start_console runs it).
        port: 0 for any free one; a port given again restarts the console where the pages expect it."""
        argv = [f"{self.build}/console/cardtable-console", "--listen", f"127.0.0.1:{port}", "--hub", self.ipc("down"), "--hub-control",
                self.ipc("hubctl"), "--hub-key", f"{self.keys}/hub.pub", "--director-key", f"{self.keys}/console-director.key",
                "--broadcaster-key", f"{self.keys}/console-broadcaster.key", "--logins", self.logins, "--www", f"{self.source}/console/www"]
        for t in self.tables:
            argv += ["--table", f"default/A/{t} control={self.ipc(f'ctl{t}')} live={self.ipc(f'live{t}')} server-key={self.keys}/table{t}.pub"]
        return argv + self.console_args

    def start_console(self, port=0, argv=None):
        """argv: another command line than console_argv(port) (another build's binary, other tables)."""
        self.console = self.start(argv or self.console_argv(port), "console")
        line = self.console.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            raise RuntimeError("cardtable-console did not start: " + line + open(f"{self.dir}/console.log").read())
        self.port = int(m.group(1))
        self.url = f"http://127.0.0.1:{self.port}/"
        return self.console

    def control(self, t, request, *args):
        """A request to a table's control endpoint, as cardtablectl sends it (director key)."""
        out = subprocess.run([self.ctl, request, *args, "--control", self.ipc(f"ctl{t}"), "--key", f"{self.keys}/console-director.key",
                              "--server-key", f"{self.keys}/table{t}.pub", "--json"], capture_output=True, text=True)
        return out.stdout

    def login(self, name, password):
        """A session cookie, as the page's fetch gets it."""
        r = send_login(self.port, name, password, timeout=10).getresponse()
        body = r.read()
        cookie = r.getheader("Set-Cookie", "")
        return r.status, json.loads(body or b"{}"), cookie.split(";")[0] if cookie else ""

    def rss_kb(self, pid=None):
        pid = pid or self.console.pid
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def close(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in reversed(self.procs):
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if os.environ.get("CARDTABLE_KEEP_VENUE"):
            print("venue kept in", self.dir)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)


def send_login(port, name, password, source="127.0.0.1", timeout=120):
    """A login as the page's form sends it; the request sent, its answer not read yet (a loopback source
    address other than 127.0.0.1 is another client to the console's per-address limits)."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    c.request("POST", "/api/login", json.dumps({"name": name, "password": password}), {"Content-Type": "application/json", "X-Cardtable": "1"})
    return c


def answer(c):
    """A sent login's answer: (status, Retry-After)."""
    r = c.getresponse()
    r.read()
    c.close()
    return r.status, r.getheader("Retry-After")


def publisher(venue, name, ctx=None):
    """A PUB socket into the hub's upstream, connected as a table's daemon connects (CURVE, with a key
    the hub admits under clients/table/: give the name in Venue(publishers=...)); since hub 1.1 a key
    speaks for one table only, so a publisher of many tables has a key, and a socket, per table."""
    import zmq
    keys = dict(l.split(" = ") for l in open(f"{venue.keys}/{name}.key").read().splitlines() if " = " in l)
    hub = dict(l.split(" = ") for l in open(f"{venue.keys}/hub.pub").read().splitlines() if " = " in l)
    ctx = ctx or zmq.Context()
    pub = ctx.socket(zmq.PUB)
    pub.curve_serverkey = hub["public"].encode()
    pub.curve_publickey, pub.curve_secretkey = keys["public"].encode(), keys["secret"].encode()
    pub.sndhwm = 1000000
    pub.connect(venue.ipc("up"))
    return ctx, pub

def event(table, seq, type_="daemon.heartbeat", severity="info", message="alive", board=1, evidence=None, now=None):
    e = {"seq": seq, "class": type_.split(".")[0], "type": type_, "severity": severity, "time": now or time.time(), "mono": 0.0,
         "message": message, "tournament": "default", "section": "A", "table": str(table), "board": board}
    if evidence:
        e["evidence"] = evidence
    return (f"{e['class']}/default/A/{table}/{type_}", json.dumps(e))


try:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
    _NOT_YET = (StaleElementReferenceException, NoSuchElementException)
except ImportError:  # the tests without a browser
    _NOT_YET = ()
    WebDriverException = None


def _replaced_while_read(e):
    """An element found in the page and read after the page reloaded: Chromium's driver says so as an
    "unknown error" (the inspector's "Node with given id does not belong to the document"), not as a stale
    element, when the reload lands between find_element and the read (console.page_recovery, 2026-12-03)."""
    return WebDriverException is not None and isinstance(e, WebDriverException) and "does not belong to the document" in str(e)


def wait_for(what, check, timeout, every=0.1):
    """check() until it gives something true (returned), or AssertionError naming what was awaited.

    A page element found and then read by check() can be replaced in between (the page re-renders as the
    stream comes back, or the whole page reloads), or be missing while the page reloads: that is "not
    yet", and the next try finds it afresh."""
    end = time.time() + timeout
    while time.time() < end:
        try:
            v = check()
        except _NOT_YET:
            v = None
        except Exception as e:  # noqa: BLE001 -- anything else is raised as it came
            if not _replaced_while_read(e):
                raise
            v = None
        if v:
            return v
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def get(venue, cookie, path):
    """A GET of the console's API as a logged-in page: (status, the JSON reply)."""
    c = http.client.HTTPConnection("127.0.0.1", venue.port, timeout=10)
    c.request("GET", path, headers={"Cookie": cookie})
    r = c.getresponse()
    return r.status, json.loads(r.read() or b"{}")


def first_message(venue, cookie):
    """The snapshot a page opening the venue stream now would get."""
    c = http.client.HTTPConnection("127.0.0.1", venue.port, timeout=10)
    c.request("GET", "/api/stream", headers={"Cookie": cookie, "Accept": "text/event-stream"})
    r = c.getresponse()
    text = b""
    while b"\n\n" not in text:
        text += r.read1(65536)
    c.close()
    return json.loads(text.split(b"data: ", 1)[1].split(b"\n", 1)[0])
