// A random Connect-4 bot for arena protocol v1 (see protocol/PROTOCOL.md), in
// Go with the standard library only: the Go twin of random_bot.py.
//
// It answers the handshake, reads the board size and blocked cells from
// `game`, rebuilds the board from every `position`, answers each `go` with a
// random playable column, writes every line at once, ignores what it does not know,
// and exits on `quit` or end of input.
//
// Build it by hand (no module or network needed), then run the program:
//
//	go build -o random_bot random_bot.go
//	./random_bot [--seed N]
//
// (The arena's build makes it as build/bots/examples/random_bot_go when Go is
// found.)
// Try it:
//
//	{ echo 'arena 1'; echo 'game connect4 player=1 rows=6 cols=7 connect=4 move_ms=100';
//	  echo 'position 4 4'; echo 'go move_ms=100'; echo quit; } | ./random_bot
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"time"
)

// cell is (col, row), 1-based, row 1 at the bottom.
type cell struct{ col, row int }

// send writes one protocol line. os.Stdout has no buffer in Go: the line
// reaches the arena at once. (Through a bufio.Writer, call Flush after every
// line: a line stuck in a buffer has not reached the arena.)
func send(line string) {
	os.Stdout.WriteString(line + "\n")
}

// fail reports on standard error, which goes to the bot's log (stdout is for
// protocol lines only), and exits.
func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "random_bot: "+format+"\n", args...)
	os.Exit(2)
}

// number is the whole of text as an integer, or fails.
func number(text string) int {
	n, err := strconv.Atoi(text)
	if err != nil {
		fail("not a number: %q", text)
	}
	return n
}

// drop is the row (1 = bottom) where a piece dropped into col lands: the
// lowest cell that is neither occupied nor blocked (blocked cells are
// skipped); 0 when the column is full.
func drop(filled map[cell]bool, rows, col int) int {
	for row := 1; row <= rows; row++ {
		if !filled[cell{col, row}] {
			return row
		}
	}
	return 0
}

// copyCells returns a new set holding the cells of from.
func copyCells(from map[cell]bool) map[cell]bool {
	to := make(map[cell]bool, len(from))
	for c := range from {
		to[c] = true
	}
	return to
}

func main() {
	seed := time.Now().UnixNano()
	flag.Func("seed", "seed `N` for repeatable play", func(text string) (err error) {
		seed, err = strconv.ParseInt(text, 10, 64)
		return err
	})
	flag.Parse() // a bad flag prints the usage and exits with status 2
	if flag.NArg() != 0 {
		fail("usage: random_bot [--seed N]")
	}
	random := rand.New(rand.NewSource(seed))

	rows, cols := 0, 0
	blocked := map[cell]bool{}
	filled := map[cell]bool{} // blocked cells plus every piece played so far

	// One command per line; Scan returns false at end of input. The buffer
	// may grow to 1 MiB, the longest line the protocol allows.
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64*1024), 1<<20+2)
	for in.Scan() {
		line := in.Text()
		words := strings.Fields(line)
		if len(words) == 0 {
			continue
		}
		command, args := words[0], words[1:]
		// key=value words, e.g. {"rows": "6", "cols": "7", "move_ms": "100"}
		keys := map[string]string{}
		for _, word := range args {
			if key, value, found := strings.Cut(word, "="); found {
				keys[key] = value
			}
		}

		switch command {
		case "arena": // handshake: introduce ourselves, then `ready`
			if len(args) == 0 || args[0] != "1" {
				fail("unsupported protocol version: %q", line)
			}
			send("name random_bot.go")
			send("author arena examples")
			send("version 1")
			send("ready")

		case "game": // a new game: read the rules, forget the old board
			if len(args) == 0 || args[0] != "connect4" {
				fail("cannot play %q", line)
			}
			rows, cols = number(keys["rows"]), number(keys["cols"])
			// blocked=4:1,6:3 -> {4 1}, {6 3}; absent when no cell is blocked
			blocked = map[cell]bool{}
			for _, c := range strings.Split(keys["blocked"], ",") {
				if c == "" {
					continue
				}
				col, row, found := strings.Cut(c, ":")
				if !found {
					fail("bad blocked cell %q", c)
				}
				blocked[cell{number(col), number(row)}] = true
			}
			filled = copyCells(blocked)
			// keys["move_ms"] is the time per move; a random bot needs no time.

		case "position": // every move since the start, both players
			filled = copyCells(blocked)
			for _, move := range args {
				col := number(move)
				row := drop(filled, rows, col)
				if row == 0 {
					fail("column %d is full in %q", col, line)
				}
				filled[cell{col, row}] = true
			}

		case "go": // our turn: optional `info` lines, then one `move`
			var playable []int
			for col := 1; col <= cols; col++ {
				if drop(filled, rows, col) != 0 {
					playable = append(playable, col)
				}
			}
			if len(playable) == 0 {
				fail("asked to move on a full board")
			}
			send(fmt.Sprintf("info %d playable columns", len(playable)))
			send(fmt.Sprintf("move %d", playable[random.Intn(len(playable))]))

		case "quit":
			return
		}
		// Anything else (`end`, or a command added in a later revision of the
		// protocol) needs no answer and is ignored.
	}
	// end of input: the arena has gone (or a line was longer than the protocol allows)
}
