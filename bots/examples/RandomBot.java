// A random Connect-4 bot for arena protocol v1 (see protocol/PROTOCOL.md), in
// Java with the standard library only: the Java twin of random_bot.py.
//
// It answers the handshake, reads the board size and blocked cells from
// `game`, rebuilds the board from every `position`, answers each `go` with a
// random playable column, flushes every line, ignores what it does not know,
// and exits on `quit` or end of input.
//
// Compile it by hand, then run it with the class directory on the class path:
//     javac -d out bots/examples/RandomBot.java
//     java -cp out RandomBot [--seed N]
// (The arena's build compiles it into build/bots/examples/ when a JDK is
// found: `java -cp build/bots/examples RandomBot`.)
// The JVM prints its own warnings on stdout, where the arena would take them
// for protocol lines; `java -Xlog:disable -Xlog:all=warning:stderr -cp DIR
// RandomBot` sends them to stderr.
// Try it: printf 'arena 1\ngame connect4 player=1 rows=6 cols=7 connect=4 move_ms=100\n'\
// 'position 4 4\ngo move_ms=100\nquit\n' | java -cp out RandomBot

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

public final class RandomBot {
    // Writes one protocol line. The flush matters: output to a pipe is
    // buffered, and a line stuck in the buffer has not reached the arena.
    // (System.out.println happens to flush too; print "\n" plus flush says so,
    // and never writes the "\r\n" println would on some systems.)
    private static void send(String line) {
        System.out.print(line + "\n");
        System.out.flush();
    }

    // Standard error goes to the bot's log; stdout is for protocol lines only.
    private static void fail(String message) {
        System.err.println("RandomBot: " + message);
        System.exit(2);
    }

    // A cell as one int: col * 100 + row (both 1-based, at most 16 here).
    private static int cell(int col, int row) {
        return col * 100 + row;
    }

    // Row (1 = bottom) where a piece dropped into `col` lands: the lowest cell
    // that is neither occupied nor blocked (blocked cells are skipped); 0 when
    // the column is full.
    private static int drop(Set<Integer> filled, int rows, int col) {
        for (int row = 1; row <= rows; row++) {
            if (!filled.contains(cell(col, row))) return row;
        }
        return 0;
    }

    private static int number(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            fail("not a number: '" + text + "'");
            return 0;
        }
    }

    public static void main(String[] args) throws IOException {
        Random random = new Random();
        if (args.length == 2 && args[0].equals("--seed")) {
            random = new Random(number(args[1]));
        } else if (args.length != 0) {
            fail("usage: java RandomBot [--seed N]");
        }

        int rows = 0;
        int cols = 0;
        Set<Integer> blocked = new HashSet<>();
        Set<Integer> filled = new HashSet<>(); // blocked cells plus every piece played so far

        BufferedReader in =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        // One command per line; readLine returns null at end of input.
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] words = line.trim().split("\\s+");
            if (words[0].isEmpty()) continue; // a blank line
            String command = words[0];
            // key=value words, e.g. {rows=6, cols=7, move_ms=100}
            Map<String, String> keys = new HashMap<>();
            for (String word : words) {
                int eq = word.indexOf('=');
                if (eq > 0) keys.put(word.substring(0, eq), word.substring(eq + 1));
            }

            switch (command) {
                case "arena": // handshake: introduce ourselves, then `ready`
                    if (words.length < 2 || !words[1].equals("1")) {
                        fail("unsupported protocol version: " + line);
                    }
                    send("name RandomBot.java");
                    send("author arena examples");
                    send("version 1");
                    send("ready");
                    break;

                case "game": // a new game: read the rules, forget the old board
                    if (words.length < 2 || !words[1].equals("connect4")) {
                        fail("cannot play: " + line);
                    }
                    rows = number(keys.getOrDefault("rows", ""));
                    cols = number(keys.getOrDefault("cols", ""));
                    // blocked=4:1,6:3 -> cells (4, 1) and (6, 3); absent when none is blocked
                    blocked = new HashSet<>();
                    for (String c : keys.getOrDefault("blocked", "").split(",")) {
                        if (c.isEmpty()) continue;
                        String[] colRow = c.split(":");
                        if (colRow.length != 2) fail("bad blocked cell '" + c + "'");
                        blocked.add(cell(number(colRow[0]), number(colRow[1])));
                    }
                    filled = new HashSet<>(blocked);
                    // keys.get("move_ms") is the time per move; a random bot needs no time.
                    break;

                case "position": // every move since the start, both players
                    filled = new HashSet<>(blocked);
                    for (int i = 1; i < words.length; i++) {
                        int col = number(words[i]);
                        int row = drop(filled, rows, col);
                        if (row == 0) fail("column " + col + " is full in: " + line);
                        filled.add(cell(col, row));
                    }
                    break;

                case "go": // our turn: optional `info` lines, then one `move`
                    List<Integer> playable = new ArrayList<>();
                    for (int col = 1; col <= cols; col++) {
                        if (drop(filled, rows, col) != 0) playable.add(col);
                    }
                    if (playable.isEmpty()) fail("asked to move on a full board");
                    send("info " + playable.size() + " playable columns");
                    send("move " + playable.get(random.nextInt(playable.size())));
                    break;

                case "quit":
                    return;

                default:
                    // Anything else (`end`, or a command added in a later
                    // revision of the protocol) needs no answer and is ignored.
                    break;
            }
        }
        // end of input: the arena has gone
    }
}
