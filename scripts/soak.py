#!/usr/bin/env python3
"""Soak test of `gulbara serve` (issue 9), standard library only.

Starts `BIN serve --listen 127.0.0.1:0 ...` itself, samples its resident
size and thread count from /proc, and runs in phases:

  warm-up      a few sessions, then the "before" figures
  never-reader one client sends `show` 100,000 times and never reads: the
               server must stop reading it and close it (write timeout)
               with its RSS bounded
  load         at once: --sessions normal sessions (handshake, then cycles
               of position / dice / go / isready, each go timed), slowloris
               clients (a partial line, one byte a second, never finished:
               the server must close them within the line timeout) and
               vanishing clients (`go infinite`, then the socket closed
               abruptly)
  settle       the server must come back near its "before" RSS and thread
               count, use no CPU while idle, and answer a fresh session
  SIGTERM      under load: the server must exit within 2 s with status 0

With --http it soaks the JSON HTTP API instead (`serve --http`): --sessions
clients on keep-alive connections send a mix of move / legal / eval / cube /
rollout requests over all nine games with some bad ones (malformed JSON,
unknown games, impossible positions, oversized bodies: each must get its
4xx) for --http-seconds, while --slowloris clients send half a body and
stall (each must be answered 408 within --line-timeout); then the settle,
idle-CPU, fresh-request and SIGTERM checks as above, with RSS before, peak
and after.

It prints the figures (answers, errors, p50/p99 go latency, server RSS
before/peak/after, ...) as a table and exits 1 when a bound is broken
(2 when the server cannot be started). Linux only (/proc, TCP_INFO).

  python3 scripts/soak.py [--bin target/release/gulbara] [--sessions 200]
      [--cycles 20] [--rss-limit-mb 200] [--server-args "..."] ...

By default the server gets short timeouts (--line-timeout 5
--write-timeout 5) and connection limits large enough for all the soak's
clients, which all come from 127.0.0.1; --server-args replaces those flags
(for example to run against a binary without them), --extra-server-args
adds to them.
"""

import argparse
import json
import os
import random
import shlex
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ----------------------------------------------------------------------------
# The server and its figures


def proc_status(pid):
    """VmRSS (kB), VmHWM (kB) and Threads of a live process, or None."""
    try:
        with open(f"/proc/{pid}/status") as f:
            text = f.read()
    except OSError:
        return None
    out = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "Threads"):
            out[key] = int(value.split()[0])
    return out if "VmRSS" in out else None


def proc_cpu_seconds(pid):
    """User + system CPU seconds of a process, or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


class Sampler(threading.Thread):
    """Samples the server's RSS and threads every `interval` seconds and
    keeps the peaks per phase."""

    def __init__(self, pid, interval=0.02):
        super().__init__(daemon=True)
        self.pid = pid
        self.interval = interval
        self.lock = threading.Lock()
        self.phase = "start"
        self.peak_rss = {}
        self.peak_threads = {}
        self.last = None
        self.done = threading.Event()

    def set_phase(self, name):
        with self.lock:
            self.phase = name

    def run(self):
        while not self.done.is_set():
            st = proc_status(self.pid)
            if st is not None:
                with self.lock:
                    self.last = st
                    p = self.phase
                    self.peak_rss[p] = max(self.peak_rss.get(p, 0), st["VmRSS"])
                    self.peak_threads[p] = max(self.peak_threads.get(p, 0), st["Threads"])
            self.done.wait(self.interval)

    def now(self):
        st = proc_status(self.pid)
        return st if st is not None else self.last


class Server:
    """`BIN serve --listen 127.0.0.1:0 ...`; `addr` is the TCP listener's."""

    # The option that names the listener, and how its `listening` line
    # starts (the address follows).
    LISTEN = "--listen"
    ANNOUNCE = "listening "

    def __init__(self, binary, server_args, log_path):
        self.log = open(log_path, "wb")
        cmd = [binary, "serve", self.LISTEN, "127.0.0.1:0"] + server_args
        self.cmd = cmd
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log
        )
        line = self.proc.stdout.readline().decode(errors="replace").strip()
        if not line.startswith(self.ANNOUNCE):
            self.proc.wait(timeout=10)
            raise RuntimeError(
                f"the server did not start (status {self.proc.returncode}, first line "
                f"{line!r}); see {log_path}"
            )
        host, _, port = line[len(self.ANNOUNCE):].split()[0].rstrip("/").rpartition(":")
        self.addr = (host, int(port))
        # Keep draining stdout so that the server never blocks on it.
        threading.Thread(target=self.proc.stdout.read, daemon=True).start()

    @property
    def pid(self):
        return self.proc.pid

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


# ----------------------------------------------------------------------------
# Clients


class Closed(Exception):
    """The server closed the connection."""


class Client:
    def __init__(self, addr, timeout):
        self.sock = socket.create_connection(addr, timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def send(self, text):
        self.sock.sendall(text.encode())

    def line(self):
        while b"\n" not in self.buf:
            try:
                data = self.sock.recv(65536)
            except ConnectionResetError:
                data = b""
            if not data:
                raise Closed(self.buf.decode(errors="replace"))
            self.buf += data
        line, _, self.buf = self.buf.partition(b"\n")
        return line.decode(errors="replace").rstrip("\r")

    def until(self, want):
        """Reads lines until one starting with `want`; an `error` line, a
        shutdown notice or a close raises."""
        while True:
            line = self.line()
            if line.startswith(want):
                return line
            if line.startswith("error "):
                raise ProtocolError(line)
            if line == "info string server shutting down":
                raise ShuttingDown(line)

    def handshake(self):
        self.send("ubgi\n")
        self.until("ubgiok")

    def close(self, abrupt=False):
        if abrupt:
            # RST instead of FIN.
            self.sock.setsockopt(
                socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
            )
        self.sock.close()


class ProtocolError(Exception):
    pass


class ShuttingDown(Exception):
    pass


def tcp_state(sock):
    """The kernel's TCP state of a socket (1 = established) without reading."""
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)
    return info[0]


TCP_ESTABLISHED = 1

ROLLS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


class Tally:
    """Counters shared by the client threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.counts = Counter()
        self.errors = Counter()
        self.error_examples = []
        self.latencies = []

    def add(self, key, n=1):
        with self.lock:
            self.counts[key] += n

    def error(self, kind, detail=""):
        with self.lock:
            self.errors[kind] += 1
            if len(self.error_examples) < 10:
                self.error_examples.append(f"{kind}: {detail}"[:200])

    def latency(self, seconds):
        with self.lock:
            self.latencies.append(seconds)


def classify(e):
    if isinstance(e, ConnectionRefusedError):
        return "refused"
    if isinstance(e, ProtocolError):
        return "error line"
    if isinstance(e, ShuttingDown):
        return "shutdown notice"
    if isinstance(e, Closed):
        return "closed by server"
    if isinstance(e, socket.timeout):
        return "read timeout"
    if isinstance(e, OSError):
        return f"socket error ({e.__class__.__name__})"
    return f"client bug ({e.__class__.__name__})"


def normal_session(addr, args, tally, attack_over, rng):
    """Handshake, then cycles of position / dice / go / isready: at least
    `args.cycles`, and on while the attack clients are still at work."""
    try:
        c = Client(addr, args.read_timeout)
    except OSError as e:
        tally.error(classify(e), str(e))
        return
    try:
        c.handshake()
        tally.add("handshakes")
        if args.ply:
            c.send(f"set engine.ply {args.ply}\nisready\n")
            c.until("readyok")
        done = 0
        while done < args.cycles or (not attack_over.is_set() and done < args.max_cycles):
            a, b = rng.choice(ROLLS)
            c.send(f"position startpos\ndice {a} {b}\n")
            t = time.monotonic()
            c.send("go\n")
            tally.add("go sent")
            c.until("bestmove")
            tally.latency(time.monotonic() - t)
            tally.add("bestmove")
            c.send("isready\n")
            tally.add("isready sent")
            c.until("readyok")
            tally.add("readyok")
            done += 1
            time.sleep(rng.uniform(args.pause_min, args.pause_max))
        c.send("quit\n")
        tally.add("sessions completed")
    except Exception as e:  # noqa: BLE001 - every failure is a figure
        if not isinstance(e, ShuttingDown) and told_shutdown(c):
            e = ShuttingDown("after " + classify(e))
        tally.error(classify(e), str(e))
    finally:
        c.close()


NOTICE = b"info string server shutting down"


def told_shutdown(c):
    """Whether the server's shutdown notice is among what it still sent
    (a send can fail before the notice is read)."""
    data = c.buf
    try:
        c.sock.settimeout(1.0)
        while NOTICE not in data:
            more = c.sock.recv(65536)
            if not more:
                break
            data += more
    except OSError:
        pass
    return NOTICE in data


def slowloris(addr, args, tally, results):
    """Handshake, then a line one byte a second, never finished. Records
    how long the server took to close the connection (None: it did not
    within the wait)."""
    try:
        c = Client(addr, 1.0)
        c.sock.settimeout(args.read_timeout)
        c.handshake()
        c.sock.settimeout(0.05)
    except Exception as e:  # noqa: BLE001
        tally.error("slowloris " + classify(e), str(e))
        return
    start = time.monotonic()
    limit = args.line_timeout + args.slack + 5
    closed_after = None
    told = ""
    payload = b"position startpos moves " + b"x" * 10000
    i = 0
    next_byte = start
    while time.monotonic() - start < limit:
        now = time.monotonic()
        if now >= next_byte:
            try:
                c.sock.send(payload[i % len(payload) : i % len(payload) + 1])
            except OSError:
                closed_after = time.monotonic() - start
                break
            i += 1
            next_byte += 1.0
        try:
            data = c.sock.recv(4096)
        except socket.timeout:
            continue
        except OSError:
            closed_after = time.monotonic() - start
            break
        if not data:
            closed_after = time.monotonic() - start
            break
        told += data.decode(errors="replace")
    c.close()
    results.append((closed_after, told.strip()))


def vanisher(addr, args, tally, count, rng):
    """`go infinite`, then the socket closed abruptly; `count` times."""
    for k in range(count):
        try:
            c = Client(addr, args.read_timeout)
        except OSError as e:
            tally.error("vanisher " + classify(e), str(e))
            continue
        try:
            c.handshake()
            c.send("position startpos\ndice 1 1\ngo infinite\n")
            c.sock.settimeout(rng.uniform(0.05, 0.3))
            try:
                c.line()  # an info line, maybe
            except socket.timeout:
                pass
            tally.add("vanished")
        except Exception as e:  # noqa: BLE001
            tally.error("vanisher " + classify(e), str(e))
        finally:
            c.close(abrupt=k % 2 == 0)


def never_reader(addr, args, tally):
    """Sends `show` many times and never reads. Returns (seconds until the
    server closed it or None, bytes sent)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # A small receive window, set before connecting, so that the server's
    # output backs up soon.
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
    s.settimeout(args.read_timeout)
    try:
        s.connect(addr)
    except OSError as e:
        tally.error("never-reader " + classify(e), str(e))
        s.close()
        return None, 0
    data = b"show\n" * args.shows
    sent = [0]
    sending_done = threading.Event()

    def send_all():
        view = memoryview(data)
        s.settimeout(1.0)
        while sent[0] < len(data) and not sending_done.is_set():
            try:
                sent[0] += s.send(view[sent[0] : sent[0] + 65536])
            except socket.timeout:
                continue
            except OSError:
                break
        sending_done.set()

    start = time.monotonic()
    t = threading.Thread(target=send_all, daemon=True)
    t.start()
    limit = args.write_timeout + 2 * args.slack + 10
    closed_after = None
    while time.monotonic() - start < limit:
        try:
            state = tcp_state(s)
        except OSError:
            state = 0
        if state != TCP_ESTABLISHED:
            closed_after = time.monotonic() - start
            break
        time.sleep(0.05)
    sending_done.set()
    t.join(timeout=5)
    s.close()
    return closed_after, sent[0]


# ----------------------------------------------------------------------------
# Phases


def quick_session(addr, timeout=30.0):
    """One handshake and one go; True when both were answered."""
    try:
        c = Client(addr, timeout)
        try:
            c.handshake()
            c.send("position startpos\ndice 6 5\ngo\n")
            c.until("bestmove")
            c.send("isready\n")
            c.until("readyok")
            c.send("quit\n")
            return True
        finally:
            c.close()
    except Exception:  # noqa: BLE001
        return False


def percentile(values, q):
    if not values:
        return float("nan")
    v = sorted(values)
    k = min(len(v) - 1, max(0, int(round(q / 100 * (len(v) - 1)))))
    return v[k]


def start(kind, args, server_args, log_path):
    """Starts a `kind` server (Server or HttpServer) and the sampler of its
    memory; None (after saying why) when it does not start."""
    try:
        server = kind(args.bin, server_args, log_path)
    except (OSError, RuntimeError) as e:
        print(f"soak: {e}", file=sys.stderr)
        return None
    print(f"soak: {' '.join(server.cmd)}  (pid {server.pid}, log {log_path})", file=sys.stderr)
    sampler = Sampler(server.pid)
    sampler.start()
    return server, sampler


def idle_cores(pid):
    """The CPU `pid` uses over the next two seconds, in cores."""
    c0 = proc_cpu_seconds(pid)
    time.sleep(2.0)
    c1 = proc_cpu_seconds(pid)
    return (c1 - c0) / 2.0 if c0 is not None and c1 is not None else float("nan")


def report(rows, tally, args, log_path):
    """Prints the figures (a table, the first errors, the JSON line with
    --json) and returns the exit status: 1 when a bound broke."""
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(str(r[1])) for r in rows)
    w2 = max(len(r[2]) for r in rows)
    print(f"{'figure':<{w0}}  {'value':<{w1}}  {'bound':<{w2}}  ok")
    for name, value, bound, ok in rows:
        mark = "" if not bound else ("ok" if ok else "BROKEN")
        print(f"{name:<{w0}}  {str(value):<{w1}}  {bound:<{w2}}  {mark}")
    if tally.error_examples:
        print("first errors:")
        for e in tally.error_examples:
            print(f"  {e}")
    if args.json:
        print(json.dumps({r[0].strip(): str(r[1]) for r in rows}))
    broken = [r[0].strip() for r in rows if r[2] and not r[3]]
    if broken:
        print(f"soak: BROKEN: {', '.join(broken)} (server log {log_path})")
        return 1
    print("soak: all bounds held")
    return 0


def settle(server, sampler, before, args):
    """Waits (up to --settle-max seconds) for RSS and threads to come back
    near their "before" values; returns the last figures."""
    deadline = time.monotonic() + args.settle_max
    st = sampler.now()
    while time.monotonic() < deadline:
        st = sampler.now()
        if (
            st["VmRSS"] - before["VmRSS"] <= args.rss_slack_mb * 1024
            and st["Threads"] <= before["Threads"] + args.thread_slack
        ):
            break
        time.sleep(0.25)
    time.sleep(0.5)
    return sampler.now()


def sigterm_under_load(server, args):
    """Sessions cycling and searches running, then SIGTERM. Returns the
    exit time, the exit status and how many clients were told."""
    tally = Tally()
    stop = threading.Event()
    stop.set()  # sessions just do their cycles (or until the shutdown)
    threads = []
    rng = random.Random(7)
    sub = argparse.Namespace(**vars(args))
    sub.cycles = 10**6
    sub.max_cycles = 10**6
    for i in range(args.term_sessions):
        t = threading.Thread(
            target=normal_session,
            args=(server.addr, sub, tally, stop, random.Random(rng.random())),
            daemon=True,
        )
        t.start()
        threads.append(t)
    # A few searches that only `stop` would end.
    infinite = []
    for _ in range(5):
        try:
            c = Client(server.addr, args.read_timeout)
            c.handshake()
            c.send("position startpos\ndice 2 2\ngo infinite\n")
            infinite.append(c)
        except Exception as e:  # noqa: BLE001
            tally.error("go infinite " + classify(e), str(e))
    time.sleep(1.5)
    answered_before = tally.counts["bestmove"]
    t0 = time.monotonic()
    os.kill(server.pid, signal.SIGTERM)
    try:
        status = server.proc.wait(timeout=args.term_limit + 10)
    except subprocess.TimeoutExpired:
        status = None
    exit_s = time.monotonic() - t0
    if status is None:
        server.kill()
    told = 0
    for c in infinite:
        c.sock.settimeout(2.0)
        try:
            while True:
                line = c.line()
                if line == "info string server shutting down":
                    told += 1
        except Exception:  # noqa: BLE001
            pass
        c.close()
    for t in threads:
        t.join(timeout=10)
    told += tally.errors["shutdown notice"]
    return {
        "exit_s": exit_s,
        "status": status,
        "told": told,
        "clients": args.term_sessions + len(infinite),
        "answered_before": answered_before,
        "errors": tally.errors,
    }


# ----------------------------------------------------------------------------
# The JSON HTTP API (--http): `serve --http`, loaded over /api/v1/


HTTP_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
HTTP_GAMES = ["backgammon", "gulbara", "long_nardy", "short_nardy", "fevga",
              "portes", "tabla", "plakoto", "tapa"]  # fmt: skip


class HttpServer(Server):
    """`BIN serve --http 127.0.0.1:0 ...`; `addr` is the HTTP listener's."""

    LISTEN = "--http"
    ANNOUNCE = "listening http://"


def http_call(conn, path, body):
    """POSTs `body` (bytes) on a keep-alive connection; (status, seconds)."""
    t0 = time.monotonic()
    conn.request("POST", path, body=body, headers={"Content-Type": "application/json"})
    resp = conn.getresponse()
    resp.read()
    return resp.status, time.monotonic() - t0


def http_requests(rng):
    """A mix of the API's requests, with the status each must get."""
    game = rng.choice(HTTP_GAMES)
    d = list(rng.choice(HTTP_ROLLS))
    pick = rng.random()
    if pick < 0.55:
        return "/api/v1/move", {"game": game, "dice": d, "ply": 1}, 200
    if pick < 0.70:
        return "/api/v1/legal", {"game": game, "dice": d}, 200
    if pick < 0.80:
        return "/api/v1/eval", {"game": game, "ply": 1}, 200
    if pick < 0.85:
        return "/api/v1/cube", {"game": "backgammon", "ply": 1, "session": {"length": 7}}, 200
    if pick < 0.87:
        return "/api/v1/rollout", {"game": "backgammon", "games": 8, "truncate": 4,
                                   "seed": rng.randrange(1000)}, 200  # fmt: skip
    if pick < 0.91:
        return "/api/v1/move", b'{"game": "backgammon", ', 400
    if pick < 0.95:
        return "/api/v1/move", {"game": "chess", "dice": d}, 400
    if pick < 0.98:
        return "/api/v1/move", {"game": game, "position": "1,2,3 w 0 0", "dice": d}, 400
    return "/api/v1/move", {"game": game, "moves": ["x" * 70000]}, 413


def http_worker(addr, until, rng, tally):
    import http.client

    conn = http.client.HTTPConnection(*addr, timeout=60)
    while time.monotonic() < until:
        path, body, want = http_requests(rng)
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        try:
            status, dt = http_call(conn, path, raw)
        except Exception as e:  # noqa: BLE001
            tally.error(f"http {type(e).__name__}: {e}")
            conn.close()
            conn = http.client.HTTPConnection(*addr, timeout=60)
            continue
        tally.add((path, status, want))
        if status != want:
            tally.error(f"{path} {body if isinstance(body, bytes) else json.dumps(body)[:80]}: "
                        f"{status}, expected {want}")  # fmt: skip
        elif path == "/api/v1/move" and want == 200:
            tally.latency(dt)
        if status == 413:
            conn.close()
            conn = http.client.HTTPConnection(*addr, timeout=60)
    conn.close()


def http_slowloris(addr, args, results):
    """Half a body, then silence: the server must answer 408 and close
    within --line-timeout (+ slack)."""
    try:
        s = socket.create_connection(addr, timeout=args.line_timeout + args.slack + 30)
        s.sendall(b"POST /api/v1/move HTTP/1.1\r\nHost: x\r\nContent-Length: 400\r\n\r\n"
                  b'{"game": "backgammon", ')  # fmt: skip
        t0 = time.monotonic()
        data = b""
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        dt = time.monotonic() - t0
        s.close()
        results.append((data.startswith(b"HTTP/1.1 408"), dt))
    except OSError:
        results.append((False, float("inf")))


def http_main(args):
    """The soak of the HTTP API: load, slow clients, memory, SIGTERM."""
    server_args = [
        "--max-connections", str(args.max_connections),
        "--max-per-ip", str(args.max_connections),
        "--line-timeout", f"{args.line_timeout:g}",
    ] + shlex.split(args.extra_server_args)  # fmt: skip
    log_path = args.log or os.path.join(tempfile.gettempdir(), f"gulbara-soak-http-{os.getpid()}.log")
    started = start(HttpServer, args, server_args, log_path)
    if started is None:
        return 2
    server, sampler = started
    rows = []

    def row(name, value, bound="", ok=True):
        rows.append((name, value, bound, ok))

    rng = random.Random(args.seed)
    try:
        sampler.set_phase("warm-up")
        http_worker(server.addr, time.monotonic() + 2, random.Random(1), Tally())
        time.sleep(1.0)
        before = sampler.now()
        cpu0 = proc_cpu_seconds(server.pid)

        print(f"soak: http load: {args.sessions} clients, {args.slowloris} slow, "
              f"{args.http_seconds:g} s ...", file=sys.stderr)  # fmt: skip
        sampler.set_phase("load")
        tally, slow = Tally(), []
        until = time.monotonic() + args.http_seconds
        threads = [
            threading.Thread(target=http_worker,
                             args=(server.addr, until, random.Random(rng.random()), tally))
            for _ in range(args.sessions)
        ] + [
            threading.Thread(target=http_slowloris, args=(server.addr, args, slow))
            for _ in range(args.slowloris)
        ]  # fmt: skip
        t0 = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.monotonic() - t0
        peak = sampler.peak_rss.get("load", 0)

        sampler.set_phase("settle")
        after = settle(server, sampler, before, args)
        cpu1 = proc_cpu_seconds(server.pid)
        idle_cpu = idle_cores(server.pid)
        import http.client

        fresh = http.client.HTTPConnection(*server.addr, timeout=30)
        fresh_ok = http_call(fresh, "/api/v1/move",
                             b'{"game": "backgammon", "dice": [3, 1], "ply": 1}')[0] == 200  # fmt: skip
        fresh.close()

        # SIGTERM while loaded.
        sampler.set_phase("sigterm")
        until = time.monotonic() + 30
        loaders = [threading.Thread(target=http_worker, daemon=True,
                                    args=(server.addr, until, random.Random(i), Tally()))
                   for i in range(16)]  # fmt: skip
        for t in loaders:
            t.start()
        time.sleep(1.0)
        t_term = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        try:
            status = server.proc.wait(timeout=args.term_limit + 5)
        except subprocess.TimeoutExpired:
            status = None
        exit_s = time.monotonic() - t_term
    finally:
        sampler.done.set()
        server.kill()

    statuses, lat = tally.counts, tally.latencies
    answered = sum(statuses.values())
    ok200 = sum(v for (p, s, w), v in statuses.items() if s == 200)
    row("http clients", args.sessions)
    row("requests answered", answered)
    row("requests/s (all kinds)", f"{answered / wall:.0f}")
    row("  answered 200", ok200)
    for (p, s, w), v in sorted(statuses.items()):
        if s != 200:
            row(f"  {p} {s}", v)
    errors = sum(tally.errors.values())
    row("wrong status or errors", errors, "= 0", errors == 0)
    row("move p50", f"{percentile(lat, 50) * 1000:.1f} ms")
    row("move p99", f"{percentile(lat, 99) * 1000:.1f} ms")
    cut = sum(1 for ok, dt in slow if ok and dt <= args.line_timeout + args.slack)
    row("slow clients cut off (408)", f"{cut}/{len(slow)}",
        f"within {args.line_timeout + args.slack:g} s", cut == len(slow))  # fmt: skip
    row("RSS before", f"{before['VmRSS'] / 1024:.1f} MB")
    row("RSS peak under load", f"{peak / 1024:.1f} MB", f"<= {args.rss_limit_mb:g} MB",
        peak / 1024 <= args.rss_limit_mb)  # fmt: skip
    grown = (after["VmRSS"] - before["VmRSS"]) / 1024
    row("RSS after", f"{after['VmRSS'] / 1024:.1f} MB", f"<= before + {args.rss_slack_mb:g} MB",
        grown <= args.rss_slack_mb)  # fmt: skip
    row("threads before/after", f"{before['Threads']}/{after['Threads']}",
        f"after <= before + {args.thread_slack}",
        after["Threads"] <= before["Threads"] + args.thread_slack)  # fmt: skip
    row("idle CPU after", f"{idle_cpu:.3f} cores", f"<= {args.idle_cpu_limit:g}",
        idle_cpu == idle_cpu and idle_cpu <= args.idle_cpu_limit)  # fmt: skip
    row("fresh request after load", "answered" if fresh_ok else "FAILED", "answered", fresh_ok)
    if cpu0 is not None and cpu1 is not None:
        row("server CPU during soak", f"{cpu1 - cpu0:.1f} s")
    row("SIGTERM exit", f"{exit_s:.2f} s", f"<= {args.term_limit:g} s",
        status is not None and exit_s <= args.term_limit)  # fmt: skip
    row("SIGTERM status", "still running (killed)" if status is None else status, "= 0", status == 0)
    return report(rows, tally, args, log_path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/gulbara"))
    ap.add_argument("--sessions", type=int, default=200, help="normal sessions at once")
    ap.add_argument("--cycles", type=int, default=20, help="go cycles per session (at least)")
    ap.add_argument(
        "--max-cycles", type=int, default=200, help="most cycles per session while attacked"
    )
    ap.add_argument("--pause-min", type=float, default=0.05, help="seconds between cycles")
    ap.add_argument("--pause-max", type=float, default=0.3)
    ap.add_argument("--ply", type=int, default=0, help="set engine.ply (0: the default)")
    ap.add_argument("--slowloris", type=int, default=20)
    ap.add_argument("--vanishers", type=int, default=50, help="go-infinite-and-vanish clients")
    ap.add_argument("--shows", type=int, default=100_000, help="`show`s of the never-reader")
    ap.add_argument("--term-sessions", type=int, default=50, help="sessions during SIGTERM")
    ap.add_argument("--line-timeout", type=float, default=5)
    ap.add_argument("--write-timeout", type=float, default=5)
    ap.add_argument("--idle-timeout", type=float, default=120)
    ap.add_argument("--max-connections", type=int, default=512)
    ap.add_argument(
        "--server-args",
        default=None,
        help="serve flags replacing the generated ones (timeouts and limits)",
    )
    ap.add_argument("--extra-server-args", default="", help="serve flags added to them")
    ap.add_argument("--read-timeout", type=float, default=60, help="a client's wait for a line")
    ap.add_argument("--slack", type=float, default=3, help="seconds allowed past a timeout")
    ap.add_argument("--rss-limit-mb", type=float, default=200)
    ap.add_argument("--rss-slack-mb", type=float, default=32, help="after may exceed before by")
    ap.add_argument("--never-reader-growth-mb", type=float, default=64)
    ap.add_argument("--thread-slack", type=int, default=8, help="threads after may exceed before by")
    ap.add_argument("--idle-cpu-limit", type=float, default=0.1, help="CPU cores used while idle")
    ap.add_argument("--settle-max", type=float, default=20, help="seconds to wait for 'after'")
    ap.add_argument("--term-limit", type=float, default=2.0)
    ap.add_argument("--log", default=None, help="server stderr goes here")
    ap.add_argument("--json", action="store_true", help="also print the figures as JSON")
    ap.add_argument("--http", action="store_true",
                    help="soak the JSON HTTP API (serve --http) instead of the TCP protocol")  # fmt: skip
    ap.add_argument("--http-seconds", type=float, default=30, help="--http: seconds of load")
    ap.add_argument("--seed", type=int, default=1, help="--http: the request mix's seed")
    args = ap.parse_args()
    if args.http:
        return http_main(args)

    if args.server_args is not None:
        server_args = shlex.split(args.server_args)
    else:
        server_args = [
            "--max-connections", str(args.max_connections),
            "--max-per-ip", str(args.max_connections),
            "--line-timeout", f"{args.line_timeout:g}",
            "--write-timeout", f"{args.write_timeout:g}",
            "--idle-timeout", f"{args.idle_timeout:g}",
        ]  # fmt: skip
    server_args += shlex.split(args.extra_server_args)
    log_path = args.log or os.path.join(
        tempfile.gettempdir(), f"gulbara-soak-{os.getpid()}.log"
    )
    started = start(Server, args, server_args, log_path)
    if started is None:
        return 2
    server, sampler = started
    rows = []  # (figure, value, bound, ok)

    def row(name, value, bound="", ok=True):
        rows.append((name, value, bound, ok))

    t_start = time.monotonic()
    try:
        # Warm-up: lazily built state (the network, thread pools) is in "before".
        sampler.set_phase("warm-up")
        warm = [threading.Thread(target=quick_session, args=(server.addr,)) for _ in range(8)]
        for t in warm:
            t.start()
        for t in warm:
            t.join()
        time.sleep(1.0)
        before = sampler.now()
        cpu0 = proc_cpu_seconds(server.pid)

        # The never-reader, alone, so that its effect on RSS shows.
        print("soak: never-reader ...", file=sys.stderr)
        sampler.set_phase("never-reader")
        nr_tally = Tally()
        nr_closed, nr_sent = never_reader(server.addr, args, nr_tally)
        nr_peak = sampler.peak_rss.get("never-reader", before["VmRSS"])

        # The load.
        print(
            f"soak: load: {args.sessions} sessions, {args.slowloris} slowloris, "
            f"{args.vanishers} vanishing ...",
            file=sys.stderr,
        )
        sampler.set_phase("load")
        tally = Tally()
        attack_over = threading.Event()
        rng = random.Random(1)
        t_load = time.monotonic()
        sessions = [
            threading.Thread(
                target=normal_session,
                args=(server.addr, args, tally, attack_over, random.Random(rng.random())),
                daemon=True,
            )
            for _ in range(args.sessions)
        ]
        slow_results = []
        attackers = [
            threading.Thread(
                target=slowloris, args=(server.addr, args, tally, slow_results), daemon=True
            )
            for _ in range(args.slowloris)
        ]
        n_vt = min(5, args.vanishers)
        for i in range(n_vt):
            count = args.vanishers // n_vt + (1 if i < args.vanishers % n_vt else 0)
            attackers.append(
                threading.Thread(
                    target=vanisher,
                    args=(server.addr, args, tally, count, random.Random(rng.random())),
                    daemon=True,
                )
            )
        for t in sessions + attackers:
            t.start()
        for t in attackers:
            t.join()
        attack_over.set()
        guard = time.monotonic() + args.read_timeout * 3 + 60
        for t in sessions:
            t.join(timeout=max(0.0, guard - time.monotonic()))
        hung = sum(t.is_alive() for t in sessions)
        load_s = time.monotonic() - t_load
        load_peak = sampler.peak_rss.get("load", 0)
        load_threads = sampler.peak_threads.get("load", 0)

        # Settle: back near "before", no CPU while idle, still serving.
        sampler.set_phase("settle")
        after = settle(server, sampler, before, args)
        cpu1 = proc_cpu_seconds(server.pid)
        idle_cpu = idle_cores(server.pid)
        fresh_ok = quick_session(server.addr)
        hwm = (sampler.now() or {}).get("VmHWM", 0)

        # SIGTERM under load.
        print("soak: SIGTERM under load ...", file=sys.stderr)
        sampler.set_phase("sigterm")
        term = sigterm_under_load(server, args)
    finally:
        sampler.done.set()
        server.kill()

    # ---- the figures
    mb = lambda kb: kb / 1024.0  # noqa: E731
    lat = [x * 1000 for x in tally.latencies]
    expected_sessions = args.sessions
    c = tally.counts
    row("sessions completed", f"{c['sessions completed']}/{expected_sessions}",
        f"= {expected_sessions}", c["sessions completed"] == expected_sessions)  # fmt: skip
    row("handshakes", c["handshakes"], f"= {expected_sessions}", c["handshakes"] == expected_sessions)
    row("go answered", f"{c['bestmove']}/{c['go sent']}", "all", c["bestmove"] == c["go sent"])
    row("isready answered", f"{c['readyok']}/{c['isready sent']}", "all",
        c["readyok"] == c["isready sent"])  # fmt: skip
    n_err = sum(tally.errors.values())
    row("unexpected errors", n_err, "= 0", n_err == 0)
    for kind, k in sorted(tally.errors.items()):
        row(f"  {kind}", k)
    row("sessions hung", hung, "= 0", hung == 0)
    row("go latency p50", f"{percentile(lat, 50):.1f} ms")
    row("go latency p99", f"{percentile(lat, 99):.1f} ms")
    row("go latency max", f"{max(lat) if lat else float('nan'):.1f} ms")
    row("load phase", f"{load_s:.1f} s")

    slow_limit = args.line_timeout + args.slack
    slow_times = [t for t, _ in slow_results if t is not None]
    slow_open = sum(1 for t, _ in slow_results if t is None) + (args.slowloris - len(slow_results))
    row("slowloris closed", f"{len(slow_times)}/{args.slowloris}", f"= {args.slowloris}",
        slow_open == 0)  # fmt: skip
    if slow_times:
        worst = max(slow_times)
        row("slowloris closed after (max)", f"{worst:.1f} s", f"<= {slow_limit:g} s",
            worst <= slow_limit)  # fmt: skip
        told = Counter(msg.splitlines()[-1][:40] if msg else "(nothing)" for _, msg in slow_results)
        row("slowloris told", "; ".join(f"{k}.. x{v}" for k, v in told.most_common(2)))

    row("vanishing clients", f"{c['vanished']}/{args.vanishers}", f"= {args.vanishers}",
        c["vanished"] == args.vanishers)  # fmt: skip

    nr_limit = args.write_timeout + 2 * args.slack + 5
    row("never-reader sent", f"{nr_sent} of {args.shows * 5} bytes")
    row("never-reader closed after",
        "not closed" if nr_closed is None else f"{nr_closed:.1f} s",
        f"<= {nr_limit:g} s", nr_closed is not None and nr_closed <= nr_limit)  # fmt: skip
    nr_growth = mb(nr_peak - before["VmRSS"])
    row("never-reader RSS growth", f"{nr_growth:.1f} MB", f"<= {args.never_reader_growth_mb:g} MB",
        nr_growth <= args.never_reader_growth_mb)  # fmt: skip
    n_nr_err = sum(nr_tally.errors.values())
    if n_nr_err:
        row("never-reader errors", n_nr_err, "= 0", False)

    row("RSS before", f"{mb(before['VmRSS']):.1f} MB")
    peak = max(hwm, load_peak, nr_peak)
    row("RSS peak", f"{mb(peak):.1f} MB", f"< {args.rss_limit_mb:g} MB", mb(peak) < args.rss_limit_mb)
    row("RSS peak during load", f"{mb(load_peak):.1f} MB")
    growth = mb(after["VmRSS"] - before["VmRSS"])
    row("RSS after", f"{mb(after['VmRSS']):.1f} MB ({growth:+.1f})",
        f"<= before + {args.rss_slack_mb:g} MB", growth <= args.rss_slack_mb)  # fmt: skip
    row("threads before/peak/after", f"{before['Threads']}/{load_threads}/{after['Threads']}",
        f"after <= before + {args.thread_slack}",
        after["Threads"] <= before["Threads"] + args.thread_slack)  # fmt: skip
    row("idle CPU after load", f"{idle_cpu:.3f} cores", f"<= {args.idle_cpu_limit:g}",
        idle_cpu == idle_cpu and idle_cpu <= args.idle_cpu_limit)  # fmt: skip
    row("fresh session after load", "answered" if fresh_ok else "FAILED", "answered", fresh_ok)
    if cpu0 is not None and cpu1 is not None:
        row("server CPU during soak", f"{cpu1 - cpu0:.1f} s")

    st = term["status"]
    row("SIGTERM exit", f"{term['exit_s']:.2f} s", f"<= {args.term_limit:g} s",
        st is not None and term["exit_s"] <= args.term_limit)  # fmt: skip
    row("SIGTERM status", "still running (killed)" if st is None else st, "= 0", st == 0)
    row("SIGTERM clients told", f"{term['told']}/{term['clients']}")
    for kind, k in sorted(term["errors"].items()):
        row(f"  {kind}", k)
    # Told and closed, or closed while a command was on its way.
    expected = (
        "shutdown notice",
        "closed by server",
        "socket error (BrokenPipeError)",
        "socket error (ConnectionResetError)",
    )
    other = {k: v for k, v in term["errors"].items() if k not in expected}
    row("SIGTERM unexpected errors", sum(other.values()), "= 0", not other)
    row("soak time", f"{time.monotonic() - t_start:.0f} s")

    return report(rows, tally, args, log_path)


if __name__ == "__main__":
    sys.exit(main())
