#!/usr/bin/python3
"""A venue on one machine: cardtable-hub and N simulated tables (cardtabled, plain text over ipc), and a director's
`cardtablectl watch --json` on the hub's downstream. Measures the time from an irregularity made at a table (the
event's wall-clock `time`, set when the table publishes it) to its line read from watch's output, and the hub's CPU
and RSS with N tables. Prints, never asserts.  usage: bench/hub_alert_latency.py BUILD_DIR [TABLES=30] [SECONDS=60]"""
import json, os, shutil, signal, statistics, subprocess, sys, tempfile, threading, time

build = sys.argv[1]
tables = int(sys.argv[2]) if len(sys.argv) > 2 else 30
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 60
src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
d = tempfile.mkdtemp(prefix="cardtable-venue-")
ipc = lambda name: f"ipc://{d}/{name}"
procs = []


def spawn(args, log):
    p = subprocess.Popen(args, stdout=open(f"{d}/{log}", "w"), stderr=subprocess.STDOUT)
    procs.append(p)
    return p


def ticks(pid):  # utime + stime, in clock ticks
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


try:
    hub = spawn([f"{build}/tools/cardtable-hub/cardtable-hub", "--upstream", ipc("up"), "--downstream", ipc("down"), "--control", ipc("hubctl")], "hub.log")
    latencies = []
    # watch first: the hub passes events on only to a subscriber that is there
    watch = subprocess.Popen([f"{build}/tools/cardtablectl/cardtablectl", "watch", "--json", "-e", ipc("down"), "-c", ipc("hubctl"),
                              "-f", "irregularity/"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    procs.append(watch)

    def read():
        for line in watch.stdout:
            now = time.time()
            e = json.loads(line)
            if e.get("severity") == "alert" and isinstance(e.get("time"), (int, float)):
                latencies.append(now - e["time"])

    threading.Thread(target=read, daemon=True).start()
    time.sleep(0.5)
    for t in range(1, tables + 1):
        # every table plays a whole session with two fouled boards (an alert each as the board goes back)
        spawn([f"{build}/daemon/cardtabled", "--plaintext", "--table", str(t), "--state-dir", f"{d}/state{t}", "--publish", "connect:" + ipc("up"),
               "--control", "bind:" + ipc(f"ctl{t}"), "--live", "bind:" + ipc(f"live{t}"), "--master", f"{src}/tests/scenarios/master/spring-pairs.pbn",
               "--simulate-session", "Spring Pairs/1", "--foul", "1,2,3,4,5,6,7,8", "--sim-faults", f"flicker=0.03,drop=0.03,seed={t}", "--speed", "20"],
              f"table{t}.log")
    time.sleep(3)
    t0, c0 = time.time(), ticks(hub.pid)
    time.sleep(seconds)
    cpu = (ticks(hub.pid) - c0) / os.sysconf("SC_CLK_TCK") / (time.time() - t0)
    status = subprocess.run([f"{build}/tools/cardtablectl/cardtablectl", "status", "-c", ipc("hubctl")], capture_output=True, text=True).stdout.strip()
    lat = sorted(latencies)
    print(f"{tables} tables, {seconds:.0f} s: hub CPU {100 * cpu:.1f} % of a core, RSS {rss_kb(hub.pid) / 1024:.1f} MB; {status}")
    if lat:
        p = lambda q: 1000 * lat[min(len(lat) - 1, int(q * len(lat)))]
        print(f"table -> hub -> watch, {len(lat)} alerts: median {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms, max {1000 * lat[-1]:.1f} ms")
    else:
        print("no alert reached watch")
finally:
    for p in procs:
        p.send_signal(signal.SIGTERM)
    for p in procs:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
    shutil.rmtree(d, ignore_errors=True)
