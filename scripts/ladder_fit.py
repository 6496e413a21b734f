#!/usr/bin/env python3
"""Rates the site's Strength levels from their games against fixed anchors.

Each PGN is one level's match (`deepchess match … --pgn ladder-<level>-<elo>.pgn`),
named by the level and the anchor's rating (Stockfish's UCI_Elo, say). Every
game's result counts from our side (the player whose name starts with
DeepChess); our mean time per move comes from the move notes (`{ +0.46/14
0.41s }`), or from `--time LEVEL=SECONDS` where the notes are too coarse (a
depth-3 move takes well under the notes' 0.01 s).

The ratings are a maximum-likelihood fit of `Elo = a + b * log2(seconds per
move)` over every game (a draw is half a win and half a loss), so each level
borrows strength from the others; a level's own result is printed beside it.
The 95% intervals are profile-likelihood intervals of the fitted line at that
time. A level named `dN` searched to depth N, `mtN` for N ms a move.

`--json FILE` writes the fit for the site: each level's UCI `go` command, its
fitted rating and interval and its games. `web/build.mjs` builds the site's
Strength menu from `web/strength-levels.json`, so the labels are this fit's.
Needs python-chess (`pip install chess`).

    python3 scripts/ladder_fit.py --time d3=0.000645 ladder-*.pgn --json web/strength-levels.json
"""

import argparse
import json
import math
import re
import sys

import chess.pgn


def level_of(path, times):
    """(name, anchor, wins, draws, losses, seconds per move) of one match."""
    found = re.search(r"ladder-([^/]+)-(\d+)\.pgn$", path)
    if not found:
        sys.exit(f"{path}: expected a name ladder-<level>-<elo>.pgn")
    name, anchor = found.group(1), int(found.group(2))
    wins = draws = losses = 0
    spent = []
    with open(path) as pgn:
        while (game := chess.pgn.read_game(pgn)) is not None:
            result = game.headers.get("Result", "*")
            if result == "*":
                continue
            ours_white = game.headers.get("White", "").startswith("DeepChess")
            if result == "1/2-1/2":
                draws += 1
            elif (result == "1-0") == ours_white:
                wins += 1
            else:
                losses += 1
            for node in game.mainline():
                note = re.search(r"([\d.]+)s\s*$", node.comment.strip())
                if note and node.parent.board().turn == ours_white:
                    spent.append(float(note.group(1)))
    seconds = times.get(name) or (sum(spent) / len(spent) if spent else None)
    if not seconds or seconds <= 0:
        sys.exit(f"{path}: no time per move in the notes; give --time {name}=SECONDS")
    return name, anchor, wins, draws, losses, seconds


def go_command(name):
    """The UCI `go` command of a level named `dN` (depth N) or `mtN` (N ms a move)."""
    found = re.fullmatch(r"(d|mt)(\d+)", name)
    if not found:
        sys.exit(f"level {name}: expected dN (depth N) or mtN (N ms a move)")
    kind, n = found.groups()
    return f"go depth {n}" if kind == "d" else f"go movetime {n}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgns", nargs="+")
    parser.add_argument("--time", action="append", default=[], help="LEVEL=SECONDS per move")
    parser.add_argument("--at", type=float, action="append", default=[], help="also rate this time per move")
    parser.add_argument("--json", help="write the levels' fitted ratings here (web/strength-levels.json)")
    parser.add_argument("--anchor", default="Stockfish 15.1, UCI_LimitStrength, 10+0.1", help="what the anchors are")
    parser.add_argument(
        "--player",
        default="natively at one thread",
        help="how our side played, as the site's tooltip says it (\"in chromium, the page's engine at one thread\")",
    )
    args = parser.parse_args()
    times = {k: float(v) for k, v in (t.split("=", 1) for t in args.time)}
    levels = sorted((level_of(p, times) for p in args.pgns), key=lambda level: level[5])

    def nll(a, b):
        total = 0.0
        for _, anchor, w, d, l, t in levels:
            p = 1 / (1 + 10 ** (-(a + b * math.log2(t) - anchor) / 400))
            p = min(max(p, 1e-12), 1 - 1e-12)
            total -= (w + d / 2) * math.log(p) + (l + d / 2) * math.log(1 - p)
        return total

    grid = [(a, b) for a in range(1000, 3401, 5) for b in range(0, 301, 1)]
    best, a, b = min((nll(a, b), a, b) for a, b in grid)
    inside = [(a2, b2) for a2, b2 in grid if nll(a2, b2) - best <= 1.92]

    def rating(t):
        x = math.log2(t)
        values = [a2 + b2 * x for a2, b2 in inside]
        return a + b * x, min(values), max(values)

    games = sum(w + d + l for _, _, w, d, l, _ in levels)
    print(f"Elo = {a} + {b} * log2(seconds per move), fitted to {games} games")
    for name, anchor, w, d, l, t in levels:
        score = (w + d / 2) / (w + d + l)
        alone = f"{anchor + 400 * math.log10(score / (1 - score)):.0f}" if 0 < score < 1 else "beyond the anchor"
        fit, low, high = rating(t)
        print(
            f"{name}: {t:.4f} s a move; against {anchor}: +{w} ={d} -{l} ({100 * score:.1f}%), "
            f"alone {alone}; fitted {fit:.0f} (95%: {low:.0f} to {high:.0f})"
        )
    for t in args.at:
        fit, low, high = rating(t)
        print(f"{t} s a move: fitted {fit:.0f} (95%: {low:.0f} to {high:.0f})")
    if args.json:
        out = {
            "anchor": args.anchor,
            "player": args.player,
            "fit": {"a": a, "b": b, "games": games},
            "levels": [],
        }
        for name, anchor, w, d, l, t in levels:
            fit, low, high = rating(t)
            out["levels"].append({
                "level": name, "go": go_command(name), "seconds": round(t, 6),
                "elo": round(fit), "low": round(low), "high": round(high),
                "against": anchor, "wins": w, "draws": d, "losses": l,
            })
        with open(args.json, "w") as f:
            json.dump(out, f, indent=2)
            f.write("\n")
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
