#!/usr/bin/env python3
"""Test fixture: a Gomocup brain (pbrain protocol) that, as engines do with
their hash table, takes and touches all the memory `INFO max_memory`
announces, then plays the first free cell from the centre outwards. It
fits its limit only if the arena announces less than the limit itself."""
import sys

size = 15
taken = set()
table = None


def send(line):
    sys.stdout.write(line + "\r\n")
    sys.stdout.flush()


def move():
    centre = size // 2
    cells = sorted(((x, y) for x in range(size) for y in range(size)),
                   key=lambda c: abs(c[0] - centre) + abs(c[1] - centre))
    for c in cells:
        if c not in taken:
            taken.add(c)
            return "%d,%d" % c
    return "0,0"


def main():
    global size, table
    board = False
    for raw in sys.stdin:
        line = raw.strip()
        words = line.replace(",", " ").split()
        if not words:
            continue
        command = words[0].upper()
        if board:
            if command == "DONE":
                board = False
                send(move())
            else:
                taken.add((int(words[0]), int(words[1])))
            continue
        if command == "START":
            size = int(words[1])
            send("OK")
        elif command == "RESTART":
            taken.clear()
            send("OK")
        elif command == "INFO" and len(words) >= 3 and words[1].lower() == "max_memory":
            n = int(words[2])
            if n > 0:
                table = bytearray(b"\x01") * n  # every page touched
        elif command == "BEGIN":
            send(move())
        elif command == "TURN":
            taken.add((int(words[1]), int(words[2])))
            send(move())
        elif command == "BOARD":
            taken.clear()
            board = True
        elif command == "ABOUT":
            send('name="fill-memory", version="1"')
        elif command == "END":
            return


if __name__ == "__main__":
    main()
