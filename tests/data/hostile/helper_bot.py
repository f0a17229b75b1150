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
                   its parents, the paths given with --try, /proc/<pid>/cwd of
                   every process it can see, ...) and names each one it could
                   read on stderr as "READ <path>", then plays normally
  --try PATH       a path for --probe to try (repeatable)

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


def readable(path):
    try:
        if os.path.isdir(path):
            os.listdir(path)
            return True
        with open(path, "rb") as f:
            f.read(16)
        return True
    except OSError:
        return False


def probe(extra):
    me = os.path.dirname(os.path.abspath(__file__))
    tried = set()

    def attempt(path):
        path = os.path.normpath(path)
        if path in tried:
            return
        tried.add(path)
        if readable(path):
            print("READ " + path, file=sys.stderr)

    cwd = os.getcwd()
    paths = [cwd, os.path.dirname(cwd), "..", "../..", "."]
    for d in (cwd, os.path.dirname(cwd)):
        try:
            for name in os.listdir(d):
                paths.append(os.path.join(d, name))
        except OSError:
            pass
    paths += list(extra)
    for p in list(extra):
        paths.append(os.path.dirname(p))
    try:
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                for what in ("cwd", "root", "environ", "cmdline"):
                    paths.append("/proc/%s/%s" % (pid, what))
    except OSError:
        pass
    for p in paths:
        if os.path.abspath(p).startswith(me + os.sep) or os.path.abspath(p) == me:
            continue  # its own folder is its own
        if p.startswith("/proc/") and p.endswith(("/environ", "/cmdline")):
            # Its own processes' are its own.
            if readable(p) and p.split("/")[2] in (str(os.getpid()), "self"):
                continue
        attempt(p)
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
        elif args[i] == "--try":
            extra.append(args[i + 1])
            i += 1
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
