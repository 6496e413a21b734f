#!/usr/bin/env python3
"""Where a match's losses go wrong, from the scores both engines wrote into the PGN.

    python3 scripts/losses.py match.pgn [THRESHOLD]

Reads a `deepchess match` PGN (each engine move carries its search's score as a
comment, `{ +0.35 }`, White's view; book moves `{ book }`). For every game
DeepChess lost, finds the first move on which the opponent's own score reached
THRESHOLD pawns (default 1.0), and prints how many losses got there, the median
move number, and DeepChess's own score on its next move (its view): whether it
already saw itself worse, or was surprised. Standard library only.
"""

import re
import statistics
import sys

SCORE = re.compile(r"\{ ([+-]?\d+\.\d\d|[+-]?M\d+|book)[^}]*\}")


def pawns(comment):
    """A comment's score in pawns, White's view; mates as ±99; None for a book move."""
    if comment == "book":
        return None
    if "M" in comment:
        return -99.0 if comment.startswith("-") else 99.0
    return float(comment)


def main():
    path = sys.argv[1]
    threshold = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    games = open(path, encoding="utf-8").read().split("[Event ")[1:]
    losses, terminations, found = 0, {}, []
    for game in games:
        we_are_white = '[White "DeepChess' in game
        result = re.search(r'\[Result "([^"]+)"\]', game).group(1)
        if result != ("0-1" if we_are_white else "1-0"):
            continue
        losses += 1
        termination = re.search(r'\[Termination "([^"]+)"\]', game)
        termination = termination.group(1) if termination else "?"
        terminations[termination] = terminations.get(termination, 0) + 1
        scores = [pawns(c) for c in SCORE.findall(game.split("\n\n", 1)[1])]
        for ply, score in enumerate(scores):
            white_moved = ply % 2 == 0
            if white_moved == we_are_white or score is None:
                continue
            theirs = score if white_moved else -score
            if theirs < threshold:
                continue
            ours = next(
                (s if we_are_white else -s for j, s in enumerate(scores[ply + 1 :], ply + 1)
                 if (j % 2 == 0) == we_are_white and s is not None),
                None,
            )
            found.append((ply // 2 + 1, ours))
            break
    print(f"losses: {losses} ({', '.join(f'{n} {t}' for t, n in sorted(terminations.items()))})")
    print(f"opponent's score reached +{threshold:.2f} in {len(found)} of them, "
          f"median move {statistics.median(m for m, _ in found) if found else '-'}")
    ours = [s for _, s in found if s is not None]
    if ours:
        print(f"our score on our next move: median {statistics.median(ours):+.2f} (our view); "
              f"-0.50 or better in {sum(1 for s in ours if s >= -0.5)} of {len(ours)}")


if __name__ == "__main__":
    main()
