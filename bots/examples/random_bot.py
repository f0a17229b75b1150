#!/usr/bin/env python3
"""A random Connect-4 bot for arena protocol v1 (see protocol/PROTOCOL.md).

Copy this file to start a bot in any language: it shows everything a bot
must do. It answers the handshake, reads the board size and blocked cells
from `game`, rebuilds the board from every `position`, answers each `go`
with a random playable column, flushes every line, ignores what it does not
know, and exits on `quit` or end of input.

Usage: random_bot.py [--seed N]
Try it: printf 'arena 1\\ngame connect4 player=1 rows=6 cols=7 connect=4 move_ms=100\\n'\
'position 4 4\\ngo move_ms=100\\nquit\\n' | ./random_bot.py
"""
import argparse
import random
import sys


def send(line):
    """Writes one protocol line. The flush matters: output to a pipe is
    buffered, and a line stuck in the buffer has not reached the arena."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def fail(message):
    """Standard error goes to the bot's log; stdout is for protocol lines only."""
    print("random_bot:", message, file=sys.stderr)
    sys.exit(2)


def drop(filled, rows, col):
    """Row (1 = bottom) where a piece dropped into `col` lands: the lowest cell
    that is neither occupied nor blocked (blocked cells are skipped). None when
    the column is full."""
    for row in range(1, rows + 1):
        if (col, row) not in filled:
            return row
    return None


def main():
    parser = argparse.ArgumentParser(description="A random Connect-4 bot.")
    parser.add_argument("--seed", type=int, default=None, help="seed for repeatable play")
    rng = random.Random(parser.parse_args().seed)

    rows = cols = 0
    blocked = set()  # (col, row), 1-based, row 1 at the bottom
    filled = set()  # blocked cells plus every piece played so far

    for line in sys.stdin:  # one command per line; the loop ends at end of input
        words = line.split()
        if not words:
            continue
        command, args = words[0], words[1:]
        # key=value words, e.g. {"rows": "6", "cols": "7", "move_ms": "100"}
        keys = dict(word.split("=", 1) for word in args if "=" in word)

        if command == "arena":  # handshake: introduce ourselves, then `ready`
            if args[:1] != ["1"]:
                fail(f"unsupported protocol version {' '.join(args)}")
            send("name random_bot.py")
            send("author arena examples")
            send("version 1")
            send("ready")

        elif command == "game":  # a new game: read the rules, forget the old board
            if not args or args[0] != "connect4":
                fail(f"cannot play {line.strip()!r}")
            rows, cols = int(keys["rows"]), int(keys["cols"])
            # blocked=4:1,6:3 -> {(4, 1), (6, 3)}; absent when no cell is blocked
            blocked = {tuple(int(n) for n in cell.split(":"))
                       for cell in keys.get("blocked", "").split(",") if cell}
            filled = set(blocked)
            # keys["move_ms"] is the time per move; a random bot needs no time.

        elif command == "position":  # every move since the start, both players
            filled = set(blocked)
            for move in args:
                col = int(move)
                row = drop(filled, rows, col)
                if row is None:
                    fail(f"column {col} is full in {line.strip()!r}")
                filled.add((col, row))

        elif command == "go":  # our turn: optional `info` lines, then one `move`
            playable = [c for c in range(1, cols + 1) if drop(filled, rows, c) is not None]
            if not playable:
                fail("asked to move on a full board")
            send(f"info {len(playable)} playable columns")
            send(f"move {rng.choice(playable)}")

        elif command == "quit":
            return 0

        # Anything else (`end`, or a command added in a later revision of the
        # protocol) needs no answer and is ignored.

    return 0  # end of input: the arena has gone


if __name__ == "__main__":
    sys.exit(main())
