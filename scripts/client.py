#!/usr/bin/env python3
"""A small gulbara protocol client (Python standard library only).

    gulbara serve --listen 127.0.0.1:7667 &
    python3 scripts/client.py --port 7667 --roll 65
    python3 scripts/client.py --spawn --roll 31 --position "startpos moves 65 24/13"

With --spawn it starts `gulbara` itself and talks over stdin/stdout instead.
"""

import argparse
import socket
import subprocess
import sys


class Engine:
    """Line-oriented access to one protocol session."""

    def __init__(self, reader, writer, closer):
        self._reader = reader
        self._writer = writer
        self._closer = closer

    @classmethod
    def tcp(cls, host, port, timeout=60.0):
        sock = socket.create_connection((host, port), timeout=timeout)
        f = sock.makefile("rwb")
        return cls(f, f, lambda: (f.close(), sock.close()))

    @classmethod
    def spawn(cls, binary="gulbara"):
        p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        return cls(p.stdout, p.stdin, lambda: p.wait(timeout=10))

    def send(self, line):
        self._writer.write(line.encode() + b"\n")
        self._writer.flush()

    def recv(self):
        line = self._reader.readline()
        if not line:
            raise EOFError("engine closed the connection")
        return line.decode(errors="replace").rstrip("\r\n")

    def command(self, line, until):
        """Sends `line` and returns the response lines up to one starting with `until`."""
        self.send(line)
        lines = []
        while True:
            l = self.recv()
            if l.startswith("error"):
                raise RuntimeError(l)
            lines.append(l)
            if l.startswith(until):
                return lines

    def sync(self):
        """Waits until every earlier command has been handled."""
        self.command("isready", "readyok")

    def close(self):
        try:
            self.send("quit")
        finally:
            self._closer()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=7667)
    ap.add_argument("--spawn", action="store_true", help="start gulbara on a pipe instead of TCP")
    ap.add_argument("--binary", default="gulbara")
    ap.add_argument("--position", default="startpos")
    ap.add_argument("--roll", default="65", help="two digits, e.g. 65")
    ap.add_argument("--ply", type=int, default=2)
    ap.add_argument("--hints", type=int, default=3)
    args = ap.parse_args()

    eng = Engine.spawn(args.binary) if args.spawn else Engine.tcp(args.host, args.port)
    try:
        ident = eng.command("ubgi", "ubgiok")
        print(ident[0])
        eng.send(f"set engine.ply {args.ply}")
        eng.send(f"position {args.position}")
        eng.send(f"dice {args.roll[0]} {args.roll[1]}")
        eng.sync()
        for line in eng.command("show", "showok")[:4]:
            print(line)
        for line in eng.command(f"hint {args.hints}", "hintok")[:-1]:
            print(line)
        print(eng.command("eval", "evaluation")[-1])
        print(eng.command("go", "bestmove")[-1])
    except (RuntimeError, EOFError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        eng.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
