#!/usr/bin/env python3
"""Deep Pink against Sunfish by the protocol of Bernhardsson's Deep Pink post.

The post (Bernhardsson 2015) reports that Deep Pink wins about a third of
its games against Sunfish. Its harness (`play.py` of
github.com/erikbern/deep-pink) plays each game so:

- Deep Pink has White, from the initial position, no book;
- Deep Pink searches to a depth drawn uniformly from {1, 2} for the game;
- Sunfish thinks a time drawn uniformly from [0, 1) seconds, per game;
- the game ends at checkmate, stalemate or a claimable fifty-move draw.

This script plays that protocol through UCI (python-chess), one game at a
time, with `go depth D` for Deep Pink and `go movetime MS` for Sunfish. It
adds what the post's loop lacked so that every game ends: a claimable
threefold repetition or insufficient material is a draw, and so is a game
that reaches `--max-plies`. Each game's draws come from `--seed` and the
game's number, so a run that stops resumes where it was (`--csv` keeps one
line a game) and gives the same games' settings.

Prints the score, and the score by Deep Pink's depth and by Sunfish's time
(tenths of a second). Needs python-chess
(`pip install chess`) and an engine for each side:

    python3 scripts/deep_pink_post.py \\
        --deep-pink "deepchess uci --weights weights/deepchess-14d43258c8bb.dcsn" \\
        --sunfish sunfish-uci --games 200 --csv deep-pink-post.csv --pgn deep-pink-post.pgn
"""

import argparse
import csv
import os
import random
import shlex
import sys

import chess
import chess.engine
import chess.pgn

FIELDS = ["game", "depth", "sunfish_ms", "result", "plies", "ending"]


def settings(seed, game):
    """The game's draws: Deep Pink's depth and Sunfish's milliseconds a move."""
    rng = random.Random(f"{seed}:{game}")
    return rng.randint(1, 2), int(rng.random() * 1000)


def ending(board, max_plies):
    """The result and its reason once the game is over, else None."""
    if board.is_checkmate():
        return ("0-1" if board.turn == chess.WHITE else "1-0"), "checkmate"
    if board.is_stalemate():
        return "1/2-1/2", "stalemate"
    if board.is_insufficient_material():
        return "1/2-1/2", "insufficient material"
    if board.can_claim_fifty_moves():
        return "1/2-1/2", "fifty moves"
    if board.can_claim_threefold_repetition():
        return "1/2-1/2", "threefold repetition"
    if len(board.move_stack) >= max_plies:
        return "1/2-1/2", "ply limit"
    return None


def play(deep_pink, sunfish, depth, sunfish_ms, max_plies):
    board = chess.Board()
    while True:
        over = ending(board, max_plies)
        if over:
            return board, over
        if board.turn == chess.WHITE:
            limit, engine = chess.engine.Limit(depth=depth), deep_pink
        else:
            # Sunfish needs a moment to answer at all; the post's draw can be near 0.
            limit, engine = chess.engine.Limit(time=max(sunfish_ms, 1) / 1000), sunfish
        move = engine.play(board, limit).move
        if move is None or move not in board.legal_moves:
            raise RuntimeError(f"{engine.id.get('name')} played {move} in {board.fen()}")
        board.push(move)


def done_games(path):
    if not path or not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def points(result):
    return {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}[result]


def summary(rows):
    def line(label, rs):
        if not rs:
            return f"{label}: no games"
        w = sum(r["result"] == "1-0" for r in rs)
        d = sum(r["result"] == "1/2-1/2" for r in rs)
        l_ = len(rs) - w - d
        score = sum(points(r["result"]) for r in rs) / len(rs)
        return f"{label}: {len(rs)} games, +{w} ={d} -{l_}, {100 * score:.1f}%"

    out = [line("Deep Pink", rows)]
    for depth in (1, 2):
        out.append(line(f"  depth {depth}", [r for r in rows if int(r["depth"]) == depth]))
    for tenth in range(10):
        rs = [r for r in rows if int(r["sunfish_ms"]) // 100 == tenth]
        out.append(line(f"  Sunfish {tenth / 10:.1f}-{(tenth + 1) / 10:.1f} s", rs))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deep-pink", required=True, help="Deep Pink's UCI command line")
    ap.add_argument("--sunfish", default="sunfish-uci", help="Sunfish's UCI command line")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2014)
    ap.add_argument("--max-plies", type=int, default=600)
    ap.add_argument("--csv", help="one line a game; an existing file is resumed")
    ap.add_argument("--pgn", help="append each game here")
    ap.add_argument("--summary", action="store_true", help="print the CSV's summary and stop")
    args = ap.parse_args()

    rows = done_games(args.csv)
    if args.summary:
        print(summary(rows))
        return
    done = {int(r["game"]) for r in rows}
    deep_pink = chess.engine.SimpleEngine.popen_uci(shlex.split(args.deep_pink))
    sunfish = chess.engine.SimpleEngine.popen_uci(shlex.split(args.sunfish))
    try:
        for game in range(1, args.games + 1):
            if game in done:
                continue
            depth, ms = settings(args.seed, game)
            board, (result, why) = play(deep_pink, sunfish, depth, ms, args.max_plies)
            row = {"game": game, "depth": depth, "sunfish_ms": ms, "result": result,
                   "plies": len(board.move_stack), "ending": why}
            rows.append({k: str(v) for k, v in row.items()})
            if args.csv:
                new = not os.path.exists(args.csv)
                with open(args.csv, "a", newline="") as f:
                    w = csv.DictWriter(f, fieldnames=FIELDS)
                    if new:
                        w.writeheader()
                    w.writerow(row)
            if args.pgn:
                pgn = chess.pgn.Game.from_board(board)
                pgn.headers.update({"Event": "Deep Pink's protocol", "Round": str(game),
                                    "White": f"Deep Pink depth {depth}",
                                    "Black": f"Sunfish {ms} ms", "Result": result,
                                    "Termination": why})
                with open(args.pgn, "a") as f:
                    print(pgn, file=f, end="\n\n")
            print(f"game {game}: depth {depth}, Sunfish {ms} ms: {result} ({why}, "
                  f"{len(board.move_stack)} plies)", flush=True)
    finally:
        deep_pink.quit()
        sunfish.quit()
    print(summary(rows))


if __name__ == "__main__":
    sys.exit(main())
