#!/usr/bin/env python3
"""Speed of the Python package on one core (docs/BENCHMARKS.md, "Python").

    python3 scripts/bench_python.py [--positions N] [--batch N] [--games N]

Measures, pinned to one core (os.sched_setaffinity), in process CPU time
(time.process_time: the machine is shared, and wall time would count the
other processes' turns):
- a 0-ply best play (gnubg's 0-ply: `Engine(ply=1).best_play`) in backgammon,
  median time per call over positions with dice from self-play games;
- batch evaluation (`Engine.evaluate_batch`) of a numpy array of positions,
  positions per second (median of five runs);
- the RL environment (`Env`) with a random agent: decisions (`step` calls),
  rolls and games per second, in backgammon and long nardy;
and, when they import in the same interpreter, bgsage's `checker_play` and
`batch_evaluate` on the same backgammon positions and OpenSpiel's
backgammon with a random agent. Prints a Markdown table.
"""

import argparse
import os
import random
import statistics
import time

import numpy as np

import gulbara


def one_core():
    try:
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    except (AttributeError, OSError):
        pass


def positions_with_dice(n, seed):
    """Backgammon positions with dice to play, from games of the network at
    0-ply against itself (every decision of the games, until n)."""
    eng = gulbara.Engine("backgammon", ply=1)
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        o = gulbara.opening_throw("backgammon", seed=rng.randrange(1 << 30))
        s = o.state
        while not s.is_over and len(out) < n:
            if s.pending == "roll":
                s = s.roll(rng.randint(1, 6), rng.randint(1, 6))
            out.append(s)
            s = eng.best_play(s).end
    return out


def median_call_us(fn, items, repeat=3):
    times = []
    for _ in range(repeat):
        for x in items:
            t = time.process_time_ns()
            fn(x)
            times.append(time.process_time_ns() - t)
    return statistics.median(times) / 1000.0


def bench_env(game, games, seed):
    env = gulbara.Env(game, seed=seed)
    rng = random.Random(seed)
    steps = rolls = 0
    t = time.process_time()
    for _ in range(games):
        while not env.done:
            env.step(rng.randrange(env.num_actions()))
            steps += 1
        rolls += sum(env.state.rolls)
        env.reset()
    dt = time.process_time() - t
    return steps / dt, rolls / dt, games / dt


def bgsage_board(board):
    """A (2, 26) gulbara board (mover first) as bgsage's 26 numbers: [0] the
    opponent's bar, 1..24 the mover's points (mover +, opponent -), [25] the
    mover's bar."""
    b = [0] * 26
    b[0] = int(board[1, 25])
    b[25] = int(board[0, 25])
    for p in range(1, 25):
        b[p] = int(board[0, p]) - int(board[1, 25 - p])
    return b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--batch", type=int, default=200_000)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    one_core()
    rows = []

    pos = positions_with_dice(a.positions, a.seed)
    eng = gulbara.Engine("backgammon", ply=1)
    us = median_call_us(eng.best_play, pos)
    rows.append(("gulbara `Engine(ply=1).best_play`, backgammon", f"median {us:.1f} µs per call", f"{len(pos)} positions x3"))

    # The batch: the boards before the roll of the same games, repeated.
    before = np.stack([p.board for p in pos])
    reps = max(1, a.batch // len(before))
    batch = np.ascontiguousarray(np.tile(before, (reps, 1, 1)))
    rates = []
    for _ in range(5):
        t = time.process_time()
        eng.evaluate_batch(batch)
        rates.append(len(batch) / (time.process_time() - t))
    rows.append(("gulbara `Engine.evaluate_batch`, backgammon", f"median {statistics.median(rates):,.0f} positions/s", f"{len(batch):,} positions x5"))

    for game in ("backgammon", "long_nardy"):
        steps, rolls, games = bench_env(game, a.games, a.seed)
        rows.append((f"gulbara `Env`, {game}, random agent", f"{steps:,.0f} decisions/s, {rolls:,.0f} rolls/s, {games:,.1f} games/s", f"{a.games} games"))

    try:
        import bgsage
    except ImportError:
        bgsage = None
    if bgsage is not None:
        an = bgsage.BgBotAnalyzer(eval_level="1ply", cubeful=False, parallel_threads=1)
        boards = [bgsage_board(p.board) for p in pos]
        dice = [p.dice for p in pos]

        def cp(i):
            d = dice[i]
            an.checker_play(boards[i], d[0], d[1])

        us = median_call_us(cp, range(len(pos)))
        rows.append(("bgsage `BgBotAnalyzer(eval_level='1ply', cubeful=False).checker_play`", f"median {us:.1f} µs per call", f"same {len(pos)} positions x3"))
        dicts = [{"board": bgsage_board(b), "cube_value": 1, "cube_owner": "centered"} for b in batch[: min(len(batch), 50_000)]]
        rates = []
        for _ in range(3):
            t = time.process_time()
            bgsage.batch_evaluate(dicts, eval_level="1ply", n_threads=1)
            rates.append(len(dicts) / (time.process_time() - t))
        rows.append(("bgsage `batch_evaluate(eval_level='1ply', n_threads=1)`", f"median {statistics.median(rates):,.0f} positions/s", f"{len(dicts):,} positions x3"))

    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    if pyspiel is not None:
        g = pyspiel.load_game("backgammon")
        rng = random.Random(a.seed)
        steps = decisions = 0
        t = time.process_time()
        for _ in range(a.games):
            s = g.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    outs = s.chance_outcomes()
                    s.apply_action(rng.choices([o[0] for o in outs], [o[1] for o in outs])[0])
                else:
                    s.apply_action(rng.choice(s.legal_actions()))
                    decisions += 1
                steps += 1
        dt = time.process_time() - t
        rows.append(("OpenSpiel backgammon, random agent", f"{decisions / dt:,.0f} decisions/s, {a.games / dt:,.1f} games/s", f"{a.games} games (a decision: an action, both dice of a roll; a doublet takes two)"))

    print("| what | median | sample |")
    print("|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} |")


if __name__ == "__main__":
    main()
