// A random Connect-4 bot for arena protocol v1 (see protocol/PROTOCOL.md), in
// C++17 with the standard library only: the C++ twin of random_bot.py. It
// uses nothing of the arena, so it can be copied anywhere and built alone:
//
//     g++ -std=c++17 -O2 -o random_bot random_bot.cpp
//
// (The arena's build makes it as build/bots/examples/random_bot_cpp. For a C++
// bot that reuses the arena's game rules, see "A C++ bot" in bots/README.md.)
//
// It answers the handshake, reads the board size and blocked cells from
// `game`, rebuilds the board from every `position`, answers each `go` with a
// random playable column, flushes every line, ignores what it does not know,
// and exits on `quit` or end of input.
//
// Usage: random_bot [--seed N]
// Try it:
//     { echo 'arena 1'; echo 'game connect4 player=1 rows=6 cols=7 connect=4 move_ms=100';
//       echo 'position 4 4'; echo 'go move_ms=100'; echo quit; } | ./random_bot

#include <cstdlib>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

using Cell = std::pair<int, int>;  // (col, row), 1-based, row 1 at the bottom

// Writes one protocol line. std::endl flushes: output to a pipe is buffered,
// and a line stuck in the buffer has not reached the arena.
void send(const std::string& line) {
    std::cout << line << std::endl;
}

// Standard error goes to the bot's log; stdout is for protocol lines only.
[[noreturn]] void fail(const std::string& message) {
    std::cerr << "random_bot: " << message << std::endl;
    std::exit(2);
}

// The whole of `text` as an integer, or fail.
int to_int(const std::string& text) {
    std::size_t used = 0;
    try {
        const int n = std::stoi(text, &used);
        if (used == text.size()) return n;
    } catch (const std::exception&) {
    }
    fail("not a number: '" + text + "'");
}

// Row (1 = bottom) where a piece dropped into `col` lands: the lowest cell
// that is neither occupied nor blocked (blocked cells are skipped); 0 when
// the column is full.
int drop(const std::set<Cell>& filled, int rows, int col) {
    for (int row = 1; row <= rows; ++row) {
        if (filled.count({col, row}) == 0) return row;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::mt19937 rng(std::random_device{}());
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 2 && args[0] == "--seed") {
        rng.seed(static_cast<std::mt19937::result_type>(to_int(args[1])));
    } else if (!args.empty()) {
        fail("usage: random_bot [--seed N]");
    }

    int rows = 0, cols = 0;
    std::set<Cell> blocked;
    std::set<Cell> filled;  // blocked cells plus every piece played so far

    // One command per line; the loop ends at end of input.
    for (std::string line; std::getline(std::cin, line);) {
        std::istringstream in(line);
        std::string command;
        if (!(in >> command)) continue;  // a blank line
        std::vector<std::string> words;
        std::map<std::string, std::string> keys;  // key=value words: rows -> "6"
        for (std::string word; in >> word;) {
            words.push_back(word);
            if (const auto eq = word.find('='); eq != std::string::npos)
                keys[word.substr(0, eq)] = word.substr(eq + 1);
        }

        if (command == "arena") {  // handshake: introduce ourselves, then `ready`
            if (words.empty() || words[0] != "1") fail("unsupported protocol version: " + line);
            send("name random_bot.cpp");
            send("author arena examples");
            send("version 1");
            send("ready");

        } else if (command == "game") {  // a new game: read the rules, forget the old board
            if (words.empty() || words[0] != "connect4") fail("cannot play: " + line);
            rows = to_int(keys["rows"]);
            cols = to_int(keys["cols"]);
            // blocked=4:1,6:3 -> {(4, 1), (6, 3)}; absent when no cell is blocked
            blocked.clear();
            std::istringstream cells(keys["blocked"]);
            for (std::string cell; std::getline(cells, cell, ',');) {
                const auto colon = cell.find(':');
                if (colon == std::string::npos) fail("bad blocked cell '" + cell + "'");
                blocked.insert({to_int(cell.substr(0, colon)), to_int(cell.substr(colon + 1))});
            }
            filled = blocked;
            // keys["move_ms"] is the time per move; a random bot needs no time.

        } else if (command == "position") {  // every move since the start, both players
            filled = blocked;
            for (const auto& move : words) {
                const int col = to_int(move);
                const int row = drop(filled, rows, col);
                if (row == 0) fail("column " + move + " is full in: " + line);
                filled.insert({col, row});
            }

        } else if (command == "go") {  // our turn: optional `info` lines, then one `move`
            std::vector<int> playable;
            for (int col = 1; col <= cols; ++col) {
                if (drop(filled, rows, col) != 0) playable.push_back(col);
            }
            if (playable.empty()) fail("asked to move on a full board");
            send("info " + std::to_string(playable.size()) + " playable columns");
            // rng() % n is slightly uneven, and exactly repeatable everywhere.
            send("move " + std::to_string(playable[rng() % playable.size()]));

        } else if (command == "quit") {
            return 0;
        }
        // Anything else (`end`, or a command added in a later revision of the
        // protocol) needs no answer and is ignored.
    }
    return 0;  // end of input: the arena has gone
}
