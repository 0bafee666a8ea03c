#!/usr/bin/env python3
"""The board's review against GNU Backgammon's analysis, on games played on
the board (issue 50, Deliver 7).

    python3 scripts/gnubg_review_compare.py [--games 10] [--seed 5000]
        [--engine-ply 1] [--engine-eval heuristic] [--out DIR]

What it does, each step through the board as a person would use it:

1. starts `gulbara serve --http 127.0.0.1:0` (target/release/gulbara, or
   $GULBARA) and a headless Chromium through chromedriver;
2. on the board (`/?side=watch&seed=S&anim=0`), backgammon money play, the
   engine playing both sides (watch) at the board's Engine depth and
   evaluator given (weaker play than the default gives more errors to
   compare), plays --games games, the dice from the page's seeded
   generator;
3. after each game: Download .mat (gnubg) on the board (the file the
   browser saves), then Review at depth 3 (`engine.ply 3`, gnubg's 2-ply),
   keeping each decision's roll, played turn and equity lost;
4. GNU Backgammon (`gnubg -t`, $GNUBG or /usr/games/gnubg) imports each
   .mat and analyses its checker play at 2-ply, cubeless (our review judges
   checker play by cubeless equity), no cube or luck analysis;
5. pairs the decisions turn by turn (the rolls must agree) and reports the
   blunders (a decision losing >= 0.08) flagged by both, by gnubg only and
   by our review only, and each player's error rate per game (mEMG per
   decision with more than one distinct play) by both, with how far they
   agree.

Everything is written to --out (default: a new temporary folder): the
.mat files, the records, the decisions of both sides as JSON, and the
report (report.txt), which is also printed. It is a measurement, not a
test: it takes minutes and its figures are what it found.
"""

import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BLUNDER = 0.08
GUARD = 1800.0  # seconds any one wait may take before the run gives up


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    """The few WebDriver calls the run needs, over chromedriver's HTTP."""

    def __init__(self, port, downloads, profile):
        self.base = f"http://127.0.0.1:{port}"
        caps = {
            "capabilities": {
                "alwaysMatch": {
                    "goog:chromeOptions": {
                        "args": [
                            "--headless",
                            "--no-sandbox",
                            "--disable-gpu",
                            "--disable-dev-shm-usage",
                            "--no-first-run",
                            f"--user-data-dir={profile}",
                            "--window-size=1300,950",
                        ],
                        "prefs": {
                            "download.default_directory": downloads,
                            "download.prompt_for_download": False,
                        },
                    }
                }
            }
        }
        for c in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
            if os.path.exists(c):
                caps["capabilities"]["alwaysMatch"]["goog:chromeOptions"]["binary"] = c
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("content-type", "application/json")
        with urllib.request.urlopen(req, timeout=GUARD) as r:
            return json.loads(r.read())["value"]

    def s(self, method, path, body=None):
        return self.call(method, f"/session/{self.session}{path}", body)

    def goto(self, url):
        self.s("POST", "/url", {"url": url})

    def js(self, expr):
        script = f"const S = window.gulbara && window.gulbara.state(); return ({expr});"
        return self.s("POST", "/execute/sync", {"script": script, "args": []})

    def click(self, css):
        el = self.s("POST", "/element", {"using": "css selector", "value": css})
        key = next(iter(el.values()))
        self.s("POST", f"/element/{key}/click", {})

    def select(self, css, value):
        # As a person's choice: the value set, then the change event.
        self.js(
            f"(() => {{ const e = document.querySelector({json.dumps(css)}); e.value = {json.dumps(value)}; "
            f"e.dispatchEvent(new Event('change')); return true; }})()"
        )

    def wait(self, what, expr):
        start = time.time()
        while True:
            if self.js(expr) is True:
                return
            if time.time() - start > GUARD:
                status = self.js("document.getElementById('status').textContent")
                raise SystemExit(f"waited too long for {what}: {status}")
            time.sleep(0.1)

    def close(self):
        try:
            self.s("DELETE", "")
        except Exception:
            pass


GNUBG_SCRIPT = r'''
import json, os, gnubg
out = {}
for cmd in ("set analysis chequerplay evaluation plies 2",
            "set analysis chequerplay evaluation cubeful off",
            "set analysis chequerplay evaluation prune on",
            "set analysis cube off",
            "set analysis luck off",
            "set analysis moves on"):
    gnubg.command(cmd)
for path in os.environ["COMPARE_MATS"].split(":"):
    gnubg.command("import mat " + path)
    gnubg.command("analyse match")
    m = gnubg.match(analysis=1, boards=0, statistics=0, verbose=0)
    moves = []
    for action in m["games"][0]["game"]:
        if action.get("action") != "move":
            continue
        a = action.get("analysis") or {}
        cands = a.get("moves") or []
        loss = None
        if len(cands) > 1 and "imove" in a:
            best = max(c["score"] for c in cands)
            loss = best - cands[a["imove"]]["score"]
        moves.append({
            "player": action.get("player"),
            "dice": sorted(action.get("dice") or [], reverse=True),
            "loss": loss,
            "choices": len(cands),
        })
    out[path] = moves
with open(os.environ["COMPARE_OUT"], "w") as f:
    json.dump(out, f)
'''


def play_games(args, out):
    gulbara = os.environ.get("GULBARA", os.path.join(ROOT, "target/release/gulbara"))
    server = subprocess.Popen(
        [gulbara, "serve", "--http", "127.0.0.1:0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    line = server.stdout.readline().strip()
    host = line.removeprefix("listening http://").rstrip("/")
    port = free_port()
    driver = subprocess.Popen(
        ["chromedriver", f"--port={port}", "--allowed-ips=127.0.0.1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    downloads = os.path.join(out, "downloads")
    os.makedirs(downloads, exist_ok=True)
    games = []
    wd = None
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        wd = WebDriver(port, downloads, os.path.join(out, "profile"))
        # Backgammon, watched: the engine plays both sides.
        wd.goto(f"http://{host}/?saved=off")
        wd.js(
            "(() => { localStorage.setItem('gulbara.prefs', JSON.stringify({ variant: 'backgammon', side: 'watch', reviewPly: '3', played: true })); return true; })()"
        )
        wd.goto(f"http://{host}/?saved=off&anim=0&seed={args.seed}")
        wd.wait("the board", "!!S && S.variant === 'backgammon' && S.keys.length > 0")
        wd.wait("the first game", "S.moves.length > 0")
        # The engine's depth and evaluator, through the board's settings.
        for key, value in (("engine.ply", args.engine_ply), ("engine.eval", args.engine_eval)):
            wd.select(f'[id="opt-{key}"]', value)
            wd.wait(f"{key} set", f"S.keys.find((k) => k.name === '{key}')?.value === '{value}'")
        # The game under way was begun before the settings: a new one.
        wd.click("#newgame")
        if wd.js("!document.getElementById('confirm').hidden"):
            wd.click("#confirm-yes")
        for g in range(args.games):
            wd.wait(f"game {g + 1} over", "S.phase === 'over'")
            record = wd.js("document.getElementById('record').textContent")
            before = set(os.listdir(downloads))
            wd.click("#download-mat")
            start = time.time()
            while True:
                new = [f for f in set(os.listdir(downloads)) - before if f.endswith(".mat")]
                if new:
                    break
                if time.time() - start > 60:
                    raise SystemExit(f"game {g + 1}: no .mat downloaded")
                time.sleep(0.1)
            mat = os.path.join(out, f"game{g + 1:02}.mat")
            shutil.move(os.path.join(downloads, new[0]), mat)
            with open(os.path.join(out, f"game{g + 1:02}.txt"), "w") as f:
                f.write(record)
            wd.click("#review")
            wd.wait(f"game {g + 1} reviewed", "S.review !== null && S.reviewPly === 3")
            decisions = wd.js(
                "S.review.map((d) => ({ turn: d.turn, side: d.side, roll: d.roll, played: d.played, loss: d.loss }))"
            )
            games.append({"mat": mat, "record": record, "ours": decisions})
            print(f"game {g + 1}: {len(decisions)} decisions reviewed", file=sys.stderr)
            if g + 1 < args.games:
                wd.click("#newgame")
                wd.wait("the next game", "S.phase !== 'over'")
    finally:
        if wd:
            wd.close()
        driver.terminate()
        server.terminate()
    return games


def gnubg_losses(mats, out):
    script = os.path.join(out, "gnubg_losses.py")
    with open(script, "w") as f:
        f.write(GNUBG_SCRIPT)
    result = os.path.join(out, "gnubg.json")
    home = os.path.join(out, "gnubg-home")
    os.makedirs(home, exist_ok=True)
    env = dict(os.environ, COMPARE_MATS=":".join(mats), COMPARE_OUT=result, HOME=home)
    gnubg = os.environ.get("GNUBG", "/usr/games/gnubg")
    subprocess.run(
        [gnubg, "-t", "-q", "-r", "-p", script],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        env=env,
        check=True,
        timeout=GUARD * 4,
    )
    with open(result) as f:
        return json.load(f)


def mean(xs):
    return sum(xs) / len(xs) if xs else 0.0


def compare(games, gnubg):
    both = gnubg_only = ours_only = 0
    rows = []
    rates = []  # (game, side, ours, gnubg)
    for gi, g in enumerate(games, 1):
        theirs = gnubg[g["mat"]]
        ours = {d["turn"]: d for d in g["ours"]}
        per = {"w": {"ours": [], "gnubg": []}, "b": {"ours": [], "gnubg": []}}
        for turn, m in enumerate(theirs, 1):
            d = ours.get(turn)
            if d is not None:
                roll = [int(c) for c in d["roll"]] if d["roll"] else []
                if sorted(roll, reverse=True) != m["dice"]:
                    raise SystemExit(f"game {gi} turn {turn}: our roll {d['roll']} is gnubg's {m['dice']}")
                per[d["side"]]["ours"].append(d["loss"])
            # gnubg's X is the .mat's first player, White.
            side = "w" if m["player"] == "X" else "b"
            if d is not None and d["side"] != side:
                raise SystemExit(f"game {gi} turn {turn}: our side {d['side']} is gnubg's {m['player']}")
            if m["loss"] is not None:
                per[side]["gnubg"].append(m["loss"])
            ours_b = d is not None and d["loss"] >= BLUNDER
            gnubg_b = m["loss"] is not None and m["loss"] >= BLUNDER
            if ours_b and gnubg_b:
                both += 1
            elif gnubg_b:
                gnubg_only += 1
            elif ours_b:
                ours_only += 1
            if ours_b or gnubg_b:
                rows.append(
                    f"game {gi:2} turn {turn:3} {side} {d['roll'] if d else '-':>2} "
                    f"{d['played'] if d else '':30} ours {d['loss'] if d else float('nan'):.3f} "
                    f"gnubg {m['loss'] if m['loss'] is not None else float('nan'):.3f}"
                )
        for side in ("w", "b"):
            o = per[side]["ours"]
            t = per[side]["gnubg"]
            rates.append((gi, side, 1000 * mean(o), 1000 * mean(t), len(o), len(t)))
    return both, gnubg_only, ours_only, rows, rates


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=5000)
    p.add_argument("--engine-ply", default="1")
    p.add_argument("--engine-eval", default="heuristic")
    p.add_argument("--out")
    args = p.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="gnubg-review-compare-")
    os.makedirs(out, exist_ok=True)
    games = play_games(args, out)
    gnubg = gnubg_losses([g["mat"] for g in games], out)
    with open(os.path.join(out, "decisions.json"), "w") as f:
        json.dump({"ours": games, "gnubg": gnubg}, f, indent=1)
    both, gnubg_only, ours_only, rows, rates = compare(games, gnubg)
    diffs = [abs(o - t) for (_, _, o, t, _, _) in rates]
    xs = [o for (_, _, o, _, _, _) in rates]
    ys = [t for (_, _, _, t, _, _) in rates]
    mx, my = mean(xs), mean(ys)
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    vx = sum((x - mx) ** 2 for x in xs) ** 0.5
    vy = sum((y - my) ** 2 for y in ys) ** 0.5
    corr = cov / (vx * vy) if vx > 0 and vy > 0 else float("nan")
    lines = [
        f"{len(games)} backgammon games played on the board (watch, engine.ply {args.engine_ply}, "
        f"engine.eval {args.engine_eval}, seed {args.seed}), exported as .mat by the board;",
        "our review at engine.ply 3 (gnubg's 2-ply), gnubg 1.07 at 2-ply, cubeless checker play.",
        f"blunders (a decision losing >= {BLUNDER}): both {both}, gnubg only {gnubg_only}, ours only {ours_only}",
        f"error rates per player and game (mEMG per decision with a choice): "
        f"mean |ours - gnubg| {mean(diffs):.1f}, correlation {corr:.3f}, "
        f"mean ours {mx:.1f}, mean gnubg {my:.1f}",
        "",
        "game side  ours mEMG (decisions)  gnubg mEMG (decisions)",
    ]
    for gi, side, o, t, no, nt in rates:
        lines.append(f"{gi:4} {side:>4}  {o:9.1f} ({no:3})       {t:9.1f} ({nt:3})")
    lines += ["", "decisions flagged by either:"] + rows
    report = "\n".join(lines) + "\n"
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write(report)
    print(report)
    print(f"(files in {out})")


if __name__ == "__main__":
    main()
