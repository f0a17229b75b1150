#!/usr/bin/env python3
"""Test fixture: a Connect-4 bot (protocol v1) that plays the first playable
column, and misbehaves in ways that concern its processes:

  --helpers N      starts N helper processes with multiprocessing (fork), as
                   a bot that searches in parallel does; they sleep forever
  --fork-bomb      on each `go`, starts a fork bomb beside itself, then moves
  --exit-after-end exits (status 0) after every `end`, as a bot written to
                   play one game does
  --probe          at the handshake, tries to read every file it can think of
                   outside its own folder (the arena's working directory and
                   its parents, the paths given with --try=, /proc/<pid>/cwd of
                   every process it can see, ...), names on stderr each file
                   it could read and lists each directory it could list, then
                   plays normally
  --try=PATH       a path for --probe to try (repeatable; written this way so
                   that the arena does not take it for a file the bot needs)

Other arguments are ignored (a test passes a marker to find its processes).
"""
import multiprocessing
import os
import sys
import time


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def sleep_forever():
    while True:
        time.sleep(60)


def fork_bomb():
    while True:
        try:
            os.fork()
        except OSError:
            time.sleep(0.001)


def probe(extra):
    """Names on stderr each file it could read ("READ <path>") and lists each
    directory it could list ("LIST <path>: <names>")."""
    me = os.path.dirname(os.path.abspath(__file__))
    tried = set()

    def attempt(path):
        path = os.path.normpath(path)
        if path in tried:
            return
        tried.add(path)
        if os.path.abspath(path) == me or os.path.abspath(path).startswith(me + os.sep):
            return  # its own folder is its own
        try:
            if os.path.isdir(path):
                print("LIST %s: %s" % (path, " ".join(sorted(os.listdir(path)))),
                      file=sys.stderr)
            else:
                with open(path, "rb") as f:
                    head = f.read(16)
                print("READ %s: %r" % (path, head), file=sys.stderr)
        except OSError:
            pass

    cwd = os.getcwd()
    paths = [cwd, os.path.dirname(cwd), "..", "../..", "."]
    for d in (cwd, os.path.dirname(cwd)):
        try:
            for name in os.listdir(d):
                paths.append(os.path.join(d, name))
        except OSError:
            pass
    for p in extra:
        paths += [p, os.path.dirname(p) or "."]
    try:
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                for what in ("cwd", "root"):
                    paths.append("/proc/%s/%s" % (pid, what))
                    paths.append("/proc/%s/%s/%s" % (pid, what, os.path.relpath(cwd, "/")))
    except OSError:
        pass
    for p in paths:
        attempt(p)
    print("PROBED %d paths" % len(tried), file=sys.stderr)
    sys.stderr.flush()


def main():
    args = sys.argv[1:]
    helpers = 0
    bomb = exit_after_end = do_probe = False
    extra = []
    i = 0
    while i < len(args):
        if args[i] == "--helpers":
            helpers = int(args[i + 1])
            i += 1
        elif args[i] == "--fork-bomb":
            bomb = True
        elif args[i] == "--exit-after-end":
            exit_after_end = True
        elif args[i] == "--probe":
            do_probe = True
        elif args[i].startswith("--try="):
            extra.append(args[i][len("--try="):])
        i += 1
    children = []
    for _ in range(helpers):
        p = multiprocessing.get_context("fork").Process(target=sleep_forever)
        p.start()
        children.append(p)
    rows = cols = 0
    blocked = set()
    filled = set()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command, rest = words[0], words[1:]
        keys = dict(w.split("=", 1) for w in rest if "=" in w)
        if command == "arena":
            if do_probe:
                probe(extra)
            send("name helper_bot")
            send("ready")
        elif command == "game":
            rows, cols = int(keys["rows"]), int(keys["cols"])
            blocked = {tuple(int(n) for n in c.split(":"))
                       for c in keys.get("blocked", "").split(",") if c}
        elif command == "position":
            filled = set(blocked)
            for move in rest:
                col = int(move)
                row = next(r for r in range(1, rows + 1) if (col, r) not in filled)
                filled.add((col, row))
        elif command == "go":
            if bomb and os.fork() == 0:
                fork_bomb()
            playable = [c for c in range(1, cols + 1)
                        if any((c, r) not in filled for r in range(1, rows + 1))]
            send("move %d" % playable[0])
        elif command == "end":
            if exit_after_end:
                os._exit(0)
        elif command == "quit":
            break
    os._exit(0)


if __name__ == "__main__":
    main()
