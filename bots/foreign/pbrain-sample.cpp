// pbrain-sample: a small Gomoku brain speaking the Gomocup (Piskvork) AI
// protocol, standing in for a community engine in the arena's tests. It is
// self-contained on purpose (no arena code): it knows only what a foreign
// brain knows.
//
//   pbrain-sample [--mode M] [--at-ply N] [--log FILE] [--tag X]
//
// Play: win at once if it can, else block the opponent's five, else the
// empty cell next to the stones with the best simple line score.
//
// Protocol: START n -> OK (ERROR for n outside 5..26), RESTART -> OK,
// BEGIN, TURN x,y, BOARD ... DONE -> "x,y", INFO (kept), ABOUT, END.
// Every move is preceded by a MESSAGE and a DEBUG line. Lines may end in
// "\r\n" or "\n".
//
//   --mode M   what goes wrong (default none):
//     none          plays normally
//     crash         raises SIGSEGV when asked to move
//     hang          never answers when asked to move
//     start-exit    exits with code 3 at once, reading nothing
//     start-hang    reads its input but never answers anything
//     start-error   answers `ERROR unsupported` to START
//     garbage       answers `hello arena` instead of a move
//     illegal       answers an occupied cell (off the board, 99,99, if none)
//     off-board     answers `99,99`
//     silent-about  does not answer ABOUT, otherwise normal
//     no-restart    answers `UNKNOWN` to RESTART, otherwise normal
//     twice         sends every move twice (the second copy while not on move)
//     suggest       answers `SUGGEST x,y` and plays the move only on `PLAY x,y`
//   --at-ply N  misbehave (crash, hang, garbage, illegal, off-board) only when
//               at least N stones are on the board (default 0)
//   --tag X     ignored (tests find their processes by it)
//   --log FILE  append every line received, with its bytes, to FILE

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::string g_mode = "none";
int g_at_ply = 0;
std::string g_log;

int g_size = 0;
std::vector<int> g_board;  // 0 empty, 1 mine, 2 the opponent's; index y * size + x
int g_stones = 0;

void send(const std::string& line) {
    std::cout << line << "\n" << std::flush;
}

void forever() {
    for (;;)
        pause();
}

int& at(int x, int y) {
    return g_board[static_cast<std::size_t>(y * g_size + x)];
}

bool on_board(int x, int y) {
    return x >= 0 && y >= 0 && x < g_size && y < g_size;
}

void clear_board() {
    g_board.assign(static_cast<std::size_t>(g_size * g_size), 0);
    g_stones = 0;
}

// The longest line of `who`'s stones through (x, y) if it were placed there.
int run_through(int x, int y, int who) {
    static const int kDirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    int best = 0;
    for (const auto& d : kDirs) {
        int n = 1;
        for (int s = -1; s <= 1; s += 2) {
            int cx = x + s * d[0], cy = y + s * d[1];
            while (on_board(cx, cy) && at(cx, cy) == who) {
                ++n;
                cx += s * d[0];
                cy += s * d[1];
            }
        }
        best = std::max(best, n);
    }
    return best;
}

bool near_stone(int x, int y) {
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx)
            if (on_board(x + dx, y + dy) && at(x + dx, y + dy) != 0) return true;
    return false;
}

std::pair<int, int> think() {
    int best_score = -1, bx = -1, by = -1, candidates = 0;
    if (g_stones == 0) {
        bx = by = g_size / 2;
        best_score = 0;
    }
    for (int y = 0; y < g_size; ++y) {
        for (int x = 0; x < g_size; ++x) {
            if (at(x, y) != 0 || !near_stone(x, y)) continue;
            ++candidates;
            const int mine = run_through(x, y, 1), theirs = run_through(x, y, 2);
            int score = mine * mine * 2 + theirs * theirs;
            if (mine >= 5) score += 100000;
            if (theirs >= 5) score += 50000;
            if (score > best_score) {
                best_score = score;
                bx = x;
                by = y;
            }
        }
    }
    if (bx < 0) {  // no stone nearby has a free neighbour: any empty cell
        for (int i = 0; i < g_size * g_size && bx < 0; ++i) {
            if (g_board[static_cast<std::size_t>(i)] == 0) {
                bx = i % g_size;
                by = i / g_size;
            }
        }
    }
    send("MESSAGE sample: " + std::to_string(candidates) + " candidates, best score " +
         std::to_string(best_score));
    send("DEBUG stones " + std::to_string(g_stones));
    return {bx, by};
}

// Answers the request to move, or misbehaves.
void move() {
    if (g_stones >= g_at_ply) {
        if (g_mode == "crash") {
            signal(SIGSEGV, SIG_DFL);  // past any sanitizer's handler
            raise(SIGSEGV);
        }
        if (g_mode == "hang") forever();
        if (g_mode == "garbage") return send("hello arena");
        if (g_mode == "off-board") return send("99,99");
        if (g_mode == "illegal") {
            for (int y = 0; y < g_size; ++y)
                for (int x = 0; x < g_size; ++x)
                    if (at(x, y) != 0) return send(std::to_string(x) + "," + std::to_string(y));
            return send("99,99");
        }
    }
    const auto [x, y] = think();
    if (x < 0) return send("ERROR the board is full");
    // The move as a suggestion: the manager answers PLAY x,y.
    if (g_mode == "suggest") return send("SUGGEST " + std::to_string(x) + "," + std::to_string(y));
    at(x, y) = 1;
    ++g_stones;
    const std::string answer = std::to_string(x) + "," + std::to_string(y);
    // A second move in the same write: it is there when the arena next asks.
    if (g_mode == "twice" && g_stones >= g_at_ply) return send(answer + "\n" + answer);
    send(answer);
}

bool parse_xy(const std::string& text, int& x, int& y, int* who = nullptr) {
    std::string t = text;
    std::replace(t.begin(), t.end(), ',', ' ');
    std::istringstream in(t);
    if (!(in >> x >> y)) return false;
    if (who != nullptr && !(in >> *who)) return false;
    return true;
}

std::string upper(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

bool read_line(std::string& line) {
    if (!std::getline(std::cin, line)) return false;
    if (!g_log.empty()) {
        std::ofstream log(g_log, std::ios::app);
        std::string shown;
        for (char c : line)
            shown += c == '\r' ? std::string("\\r") : std::string(1, c);
        log << shown << "\n";
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
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
            std::cerr << "pbrain-sample: unknown flag " << flag << "\n";
            return 2;
        }
    }
    if (g_mode == "start-exit") return 3;
    std::string line;
    while (read_line(line)) {
        if (g_mode == "start-hang") continue;
        std::istringstream words(line);
        std::string command;
        words >> command;
        command = upper(command);
        std::string rest;
        std::getline(words, rest);
        if (command.empty()) continue;
        if (command == "START") {
            const int size = std::atoi(rest.c_str());
            if (g_mode == "start-error" || size < 5 || size > 26) {
                send("ERROR unsupported size or other error");
                continue;
            }
            g_size = size;
            clear_board();
            send("OK");
        } else if (command == "RESTART") {
            if (g_mode == "no-restart") {
                send("UNKNOWN RESTART");
                continue;
            }
            clear_board();
            send("OK");
        } else if (command == "INFO") {
            // timeout_turn, timeout_match, time_left, max_memory, game_type, rule: a
            // brain this simple needs none of them.
        } else if (command == "ABOUT") {
            if (g_mode != "silent-about")
                send(
                    "name=\"pbrain-sample\", version=\"1.0\", author=\"arena tests\", "
                    "country=\"none\"");
        } else if (command == "BEGIN") {
            if (g_size == 0) {
                send("ERROR no START");
                continue;
            }
            clear_board();
            move();
        } else if (command == "TURN") {
            int x = 0, y = 0;
            if (g_size == 0 || !parse_xy(rest, x, y) || !on_board(x, y) || at(x, y) != 0) {
                send("ERROR bad TURN" + rest);
                continue;
            }
            at(x, y) = 2;
            ++g_stones;
            move();
        } else if (command == "BOARD") {
            clear_board();
            while (read_line(line) && upper(line) != "DONE") {
                int x = 0, y = 0, who = 0;
                if (parse_xy(line, x, y, &who) && on_board(x, y) && (who == 1 || who == 2)) {
                    at(x, y) = who;
                    ++g_stones;
                } else {
                    send("ERROR bad BOARD line " + line);
                }
            }
            move();
        } else if (command == "PLAY") {
            int x = 0, y = 0;
            if (g_size == 0 || !parse_xy(rest, x, y) || !on_board(x, y) || at(x, y) != 0) {
                send("ERROR bad PLAY" + rest);
                continue;
            }
            at(x, y) = 1;
            ++g_stones;
            send(std::to_string(x) + "," + std::to_string(y));
        } else if (command == "END") {
            return 0;
        } else {
            send("UNKNOWN " + command);
        }
    }
    return 0;
}
