#!/usr/bin/env python3
"""Write a perft suite in EPD from real games, its counts by python-chess.

    python3 scripts/perft_suite.py --out core/src/search/perft.epd \
        ../shared/data/tcec-public.pgn.zst ../shared/data/masters.pgn.zst

Positions are drawn (seeded) from the games' moves, in quotas for what a
move generator gets wrong most: the side to move in check, a legal en
passant capture, castling legal, a legal promotion, endgames of at most
eight pieces, and ordinary positions for the rest. Each line is the position's first four FEN fields and the leaf counts
to depths 1..--depth (`;D1 20 ;D2 400 ;D3 8902`), the format of the chess
programming wiki's perft suites. The counts come from python-chess (`pip
install chess`), a rules library independent of shakmaty, so the core's
test that holds the search's move path and shakmaty to them checks both
against a third implementation.
"""

import argparse
import io
import random
import subprocess
import sys

import chess
import chess.pgn

QUOTAS = [
    ("check", 40),
    ("en-passant", 40),
    ("castling", 40),
    ("promotion", 40),
    ("endgame", 40),
    ("ordinary", 100),
]


def kind(board: chess.Board) -> str:
    if board.is_check():
        return "check"
    if board.has_legal_en_passant():
        return "en-passant"
    if any(board.is_castling(m) for m in board.legal_moves):
        return "castling"
    if any(m.promotion for m in board.legal_moves):
        return "promotion"
    if chess.popcount(board.occupied) <= 8:
        return "endgame"
    return "ordinary"


def perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    leaves = 0
    for move in board.legal_moves:
        board.push(move)
        leaves += perft(board, depth - 1)
        board.pop()
    return leaves


def games(path: str, limit: int):
    """The first `limit` games of a PGN file, zstd-compressed or not."""
    if path.endswith(".zst"):
        zstd = subprocess.Popen(["zstd", "-dc", path], stdout=subprocess.PIPE)
        stream = io.TextIOWrapper(zstd.stdout, encoding="utf-8", errors="replace")
    else:
        stream = open(path, encoding="utf-8", errors="replace")
    try:
        for _ in range(limit):
            game = chess.pgn.read_game(stream)
            if game is None:
                return
            yield game
    finally:
        stream.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn", nargs="+", help="PGN files (.pgn or .pgn.zst) to draw positions from")
    parser.add_argument("--out", required=True, help="the EPD file to write")
    parser.add_argument("--depth", type=int, default=3, help="counts to this depth (default 3)")
    parser.add_argument("--games", type=int, default=4000, help="games read from each file (default 4,000)")
    parser.add_argument("--seed", type=int, default=2016)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    wanted = dict(QUOTAS)
    # Reservoirs, one a kind: every candidate position has the same chance.
    pools: dict[str, list[str]] = {name: [] for name in wanted}
    seen: dict[str, int] = {name: 0 for name in wanted}
    fens: set[str] = set()
    for path in args.pgn:
        for game in games(path, args.games):
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
                if board.is_game_over(claim_draw=False):
                    continue
                fen = " ".join(board.fen(en_passant="legal").split()[:4])
                if fen in fens:
                    continue
                name = kind(board)
                seen[name] += 1
                pool = pools[name]
                if len(pool) < wanted[name]:
                    pool.append(fen)
                    fens.add(fen)
                else:
                    slot = rng.randrange(seen[name])
                    if slot < wanted[name]:
                        fens.discard(pool[slot])
                        pool[slot] = fen
                        fens.add(fen)
    lines = []
    for name, _ in QUOTAS:
        if len(pools[name]) < wanted[name]:
            print(f"perft_suite: only {len(pools[name])} {name} positions", file=sys.stderr)
        for fen in sorted(pools[name]):
            board = chess.Board(fen + " 0 1")
            counts = " ".join(f";D{d} {perft(board, d)}" for d in range(1, args.depth + 1))
            lines.append(f"{fen} {counts}\n")
    with open(args.out, "w", encoding="ascii") as out:
        out.writelines(lines)
    print(f"perft_suite: {len(lines)} positions to depth {args.depth} in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
