#!/usr/bin/env python3
"""Test fixture: a Connect-4 bot (protocol v1) whose every word shown to
people is hostile: it announces an HTML/JavaScript name, and before each move
prints `info` lines and stderr lines holding markup, script, a terminal
escape sequence and a quote, then plays the first playable column. Pages and
terminals that show it must show the text, never run or obey it."""
import sys

PAYLOAD = ("<script>window.__hostile=1</script><img src=x onerror=\"window.__hostile=2\">"
           "\x1b[2J\x1b]0;pwned\x07 ' \" </textarea> & end")


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    rows = cols = 0
    blocked = set()
    filled = set()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command, args = words[0], words[1:]
        keys = dict(w.split("=", 1) for w in args if "=" in w)
        if command == "arena":
            send("name <script>window.__hostile=3</script>")
            send("ready")
        elif command == "game":
            rows, cols = int(keys["rows"]), int(keys["cols"])
            blocked = {tuple(int(n) for n in c.split(":"))
                       for c in keys.get("blocked", "").split(",") if c}
        elif command == "position":
            filled = set(blocked)
            for move in args:
                col = int(move)
                row = next(r for r in range(1, rows + 1) if (col, r) not in filled)
                filled.add((col, row))
        elif command == "go":
            playable = [c for c in range(1, cols + 1)
                        if any((c, r) not in filled for r in range(1, rows + 1))]
            send("info " + PAYLOAD)
            sys.stderr.write("stderr " + PAYLOAD + "\n")
            sys.stderr.flush()
            send(f"move {playable[0]}")
        elif command == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
