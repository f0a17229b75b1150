// nboard-sample: a greedy Othello engine speaking the NBoard protocol
// (version 2), standing in for a community engine in the arena's tests. It
// is self-contained on purpose (no arena code): it knows only what a foreign
// engine knows.
//
//   nboard-sample [--mode M] [--at-ply N] [--log FILE] [--tag X]
//
// Play: the move that flips the most discs (corners first), in a1..h8 order
// on ties.
//
// Protocol: `nboard 2` -> `set myname nboard-sample`; `set depth N`;
// `set game <GGF>`; `move <mv>[/eval/time]`; `ping N` -> `pong N`;
// `go` -> `status ...`, `nodestats ...`, `=== F5/0.00/0.01` (`=== PA` when
// it must pass); `hint`, `learn` and unknown commands are ignored; `quit`.
//
//   --mode M   what goes wrong (default none):
//     none          plays normally
//     spaced        answers in the form `=== F5 1.00 0.01`, lower-case
//     crash         raises SIGSEGV when asked to move
//     hang          never answers when asked to move
//     start-exit    exits with code 3 at once, reading nothing
//     start-hang    reads its input but never answers anything
//     garbage       answers `hello arena` instead of a move
//     illegal       answers an occupied cell (a1..h8 order)
//     pass          answers `=== PA` although it has a move
//     chatty        prints free-form search lines before its answer, as
//                   NTest does (` 1 (60 empty)\tF5/0.00\t...\t0.001s elapsed`)
//     deepening     thinks 2^(depth - 8) ms before each answer (the last
//                   `set depth`), as a search whose time grows with depth
//   --at-ply N  misbehave (crash, hang, garbage, illegal, pass) only from the
//               N-th move of the game on (moves and passes counted; default 0)
//   --tag X     ignored (tests find their processes by it)
//   --log FILE  append every line received to FILE

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>

namespace {

std::string g_mode = "none";
int g_at_ply = 0;
int g_depth = 12;  // the last `set depth`
std::string g_log;

// cells[row * 8 + col], row 0 at the top (row 1), col 0 = a; 0 empty, 1 black, 2 white.
std::array<int, 64> g_cells{};
int g_to_move = 1;
int g_ply = 0;

void send(const std::string& line) {
    std::cout << line << "\n" << std::flush;
}

void forever() {
    for (;;)
        pause();
}

void reset() {
    g_cells.fill(0);
    g_cells[3 * 8 + 3] = 2;
    g_cells[4 * 8 + 4] = 2;
    g_cells[3 * 8 + 4] = 1;
    g_cells[4 * 8 + 3] = 1;
    g_to_move = 1;
    g_ply = 0;
}

// Discs flipped by `who` playing cell `i` (0 when it is no move).
int flips(int i, int who, bool apply) {
    if (g_cells[static_cast<std::size_t>(i)] != 0) return 0;
    const int r0 = i / 8, c0 = i % 8, other = 3 - who;
    int total = 0;
    for (int dr = -1; dr <= 1; ++dr) {
        for (int dc = -1; dc <= 1; ++dc) {
            if (dr == 0 && dc == 0) continue;
            int r = r0 + dr, c = c0 + dc, n = 0;
            while (r >= 0 && r < 8 && c >= 0 && c < 8 && g_cells[r * 8 + c] == other) {
                r += dr;
                c += dc;
                ++n;
            }
            if (n == 0 || r < 0 || r >= 8 || c < 0 || c >= 8 || g_cells[r * 8 + c] != who) continue;
            total += n;
            if (apply) {
                for (int k = 1; k <= n; ++k)
                    g_cells[(r0 + k * dr) * 8 + (c0 + k * dc)] = who;
            }
        }
    }
    if (apply && total > 0) g_cells[static_cast<std::size_t>(i)] = who;
    return total;
}

std::string name_of(int i) {
    return std::string(1, static_cast<char>('A' + i % 8)) + std::to_string(i / 8 + 1);
}

// "F5", "f5", "F5/1.0/0.2", "PA": the cell, -1 for a pass, -2 when not a move.
int parse_move(std::string text) {
    text = text.substr(0, text.find('/'));
    for (char& c : text)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (text == "PA" || text == "PASS") return -1;
    if (text.size() != 2 || text[0] < 'A' || text[0] > 'H' || text[1] < '1' || text[1] > '8')
        return -2;
    return (text[1] - '1') * 8 + (text[0] - 'A');
}

void play(int cell) {
    if (cell >= 0 && flips(cell, g_to_move, true) == 0)
        std::cerr << "nboard-sample: illegal move told: " << name_of(cell) << "\n";
    g_to_move = 3 - g_to_move;
    ++g_ply;
}

// "(;GM[Othello]...BO[8 <64> *]B[D3]W[C5]...;)": the start position and the moves.
void set_game(const std::string& ggf) {
    reset();
    std::size_t at = 0;
    while ((at = ggf.find('[', at)) != std::string::npos) {
        std::size_t tag_start = at;
        while (tag_start > 0 && std::isupper(static_cast<unsigned char>(ggf[tag_start - 1])))
            --tag_start;
        const std::string tag = ggf.substr(tag_start, at - tag_start);
        const std::size_t close = ggf.find(']', at);
        if (close == std::string::npos) break;
        const std::string value = ggf.substr(at + 1, close - at - 1);
        if (tag == "BO") {
            std::istringstream in(value);
            int size = 0;
            std::string cells, side;
            in >> size >> cells >> side;
            if (size == 8 && cells.size() == 64) {
                for (std::size_t i = 0; i < 64; ++i)
                    g_cells[i] = cells[i] == '*' ? 1 : cells[i] == 'O' ? 2 : 0;
                g_to_move = side == "O" ? 2 : 1;
            }
        } else if (tag == "B" || tag == "W") {
            g_to_move = tag == "B" ? 1 : 2;
            play(parse_move(value));
        }
        at = close + 1;
    }
}

void go() {
    if (g_ply >= g_at_ply) {
        if (g_mode == "crash") {
            signal(SIGSEGV, SIG_DFL);  // past any sanitizer's handler
            raise(SIGSEGV);
        }
        if (g_mode == "hang") forever();
        if (g_mode == "garbage") return send("hello arena");
        if (g_mode == "pass") return send("=== PA");
        if (g_mode == "illegal") {
            for (int i = 0; i < 64; ++i)
                if (g_cells[static_cast<std::size_t>(i)] != 0) return send("=== " + name_of(i));
        }
    }
    static const std::array<int, 4> kCorners = {0, 7, 56, 63};
    int best = -1, best_flips = 0;
    for (int i = 0; i < 64; ++i) {
        int n = flips(i, g_to_move, false);
        if (n == 0) continue;
        for (int corner : kCorners)
            if (i == corner) n += 100;
        if (n > best_flips) {
            best_flips = n;
            best = i;
        }
    }
    send("status thinking");
    if (g_mode == "deepening" && g_depth > 8)
        std::this_thread::sleep_for(std::chrono::milliseconds(1LL << std::min(g_depth - 8, 20)));
    if (g_mode == "chatty") {
        send(" 1 (" + std::to_string(60 - g_ply) + " empty)\tsearching\t0.001s elapsed");
        send("");
        send("depth 1 done");
    }
    send("nodestats 64 0.001");
    if (best < 0) return send("=== PA");
    if (g_mode == "spaced") {
        std::string mv = name_of(best);
        mv[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(mv[0])));
        return send("=== " + mv + " " + std::to_string(best_flips) + ".00 0.01");
    }
    send("=== " + name_of(best) + "/" + std::to_string(best_flips % 100) + ".00/0.01");
}

}  // namespace

int main(int argc, char** argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i], value = argv[i + 1];
        if (flag == "--mode") {
            g_mode = value;
        } else if (flag == "--at-ply") {
            g_at_ply = std::atoi(value.c_str());
        } else if (flag == "--log") {
            g_log = value;
        } else if (flag == "--tag") {
            // Ignored: a marker by which tests find the process.
        } else {
            std::cerr << "nboard-sample: unknown flag " << flag << "\n";
            return 2;
        }
    }
    if (g_mode == "start-exit") return 3;
    reset();
    std::string line;
    while (std::getline(std::cin, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!g_log.empty()) std::ofstream(g_log, std::ios::app) << line << "\n";
        if (g_mode == "start-hang") continue;
        std::istringstream words(line);
        std::string command;
        words >> command;
        std::string rest;
        std::getline(words, rest);
        const auto first = rest.find_first_not_of(' ');
        rest = first == std::string::npos ? "" : rest.substr(first);
        if (command == "nboard") {
            send("set myname nboard-sample");
        } else if (command == "set") {
            if (rest.rfind("game ", 0) == 0) set_game(rest.substr(5));
            // `set depth N` matters only to --mode deepening; `set contempt
            // N`: a greedy engine needs neither.
            if (rest.rfind("depth ", 0) == 0) g_depth = std::atoi(rest.c_str() + 6);
        } else if (command == "move") {
            play(parse_move(rest));
        } else if (command == "ping") {
            send("pong " + rest);
        } else if (command == "go") {
            go();
        } else if (command == "quit") {
            return 0;
        }
    }
    return 0;
}
