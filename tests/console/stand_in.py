"""Stand-ins for a table on the console's side, for the tests that need a table to misbehave exactly so (a
control endpoint that never answers, a gap of exactly one event): the console and the browser stay the
real ones."""
import contextlib
import json
import shutil
import tempfile
import threading

from venue import Venue


class SilentPeer(threading.Thread):
    """A control endpoint (a table's, the hub's) that receives every request and answers only those named
    in `answers` (command -> reply): a table whose daemon hangs, or a hub's control behind a dead link."""

    def __init__(self, ctx, address, answers=None):
        super().__init__(daemon=True)
        import zmq
        self.zmq, self.answers, self.received, self.stop = zmq, answers or {}, [], threading.Event()
        self.socket = ctx.socket(zmq.ROUTER)
        self.socket.bind(address)

    def run(self):
        while not self.stop.is_set():
            if not self.socket.poll(50):
                continue
            frames = self.socket.recv_multipart()
            request = json.loads(frames[-1])
            self.received.append(request)
            if request.get("command") in self.answers:
                self.socket.send_multipart(frames[:-1] + [json.dumps(self.answers[request["command"]]).encode()])

    def commands(self):
        return [r.get("command") for r in self.received]


def console_with(venue, tables, hub_control=None, events=None, args=()):
    """The console of a venue whose tables (and hub control) are the given endpoints, plain text; its
    events from `events` (default: nothing binds it)."""
    argv = [f"{venue.build}/console/cardtable-console", "--listen", "127.0.0.1:0", "--events", events or venue.ipc("no-events"),
            "--logins", venue.logins, "--www", f"{venue.source}/console/www"]
    if hub_control:
        argv += ["--hub-control", hub_control]
    for t, endpoint in tables.items():
        argv += ["--table", f"default/A/{t} control={endpoint}"]
    return venue.start_console(argv=argv + list(args))


def stand_in_table(build, source, ctx, answers, console_args=()):
    """A venue whose table 1 is a stand-in: a PUB for its events and a control endpoint answering
    `answers`, read by the real console. Returns (venue, control endpoint, PUB); closing the venue is the
    caller's (the stand-in's thread is a daemon)."""
    import zmq
    venue = Venue(build, source, hub=False)
    try:
        table = SilentPeer(ctx, venue.ipc("ctl1"), answers)
        table.start()
        pub = ctx.socket(zmq.PUB)
        pub.bind(venue.ipc("events"))
        console_with(venue, {1: venue.ipc("ctl1")}, events=venue.ipc("events"), args=console_args)
        return venue, table, pub
    except BaseException:
        venue.close()
        raise


@contextlib.contextmanager
def director_page(build, source, answers, console_args=()):
    """stand_in_table with a director logged in on the console's page in chromium: yields (venue, the
    stand-in's control endpoint, its PUB, the page's driver); everything stopped and removed after."""
    import zmq
    from browser_test import browser, log_in
    ctx = zmq.Context()
    profile = tempfile.mkdtemp(prefix="cardtable-chromium-")
    driver = None
    venue, table, pub = stand_in_table(build, source, ctx, answers, console_args)
    try:
        driver = browser(profile)
        log_in(driver, venue.url, "td", "td-secret")
        yield venue, table, pub, driver
    finally:
        if driver:
            driver.quit()
        table.stop.set()
        venue.close()
        shutil.rmtree(profile, ignore_errors=True)


def run_page_test(check, answers, console_args=()):
    """A browser test on the stand-in venue, from its command line (BUILD_DIR SOURCE_DIR): check(venue,
    table, pub, driver) with a director's page open. Returns the exit status: 0, or 77 (skipped) when
    chromium or chromedriver is missing."""
    import os
    import sys
    from browser_test import no_browser
    if no_browser():
        return 77
    with director_page(sys.argv[1], sys.argv[2], answers, console_args) as page:
        check(*page)
    return 0
