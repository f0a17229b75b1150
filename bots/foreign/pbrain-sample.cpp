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

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include "gomocup_brain.hpp"

namespace {

using gomocup_brain::send;

std::string g_mode = "none";
int g_at_ply = 0;
std::string g_log;
gomocup_brain::Board g_board;  // 1 mine, 2 the opponent's

void forever() {
    for (;;)
        pause();
}

// Answers the request to move, or misbehaves.
void move() {
    if (g_board.stones() >= g_at_ply) {
        if (g_mode == "crash") {
            signal(SIGSEGV, SIG_DFL);  // past any sanitizer's handler
            raise(SIGSEGV);
        }
        if (g_mode == "hang") forever();
        if (g_mode == "garbage") return send("hello arena");
        if (g_mode == "off-board") return send("99,99");
        if (g_mode == "illegal") {
            for (int y = 0; y < g_board.size(); ++y)
                for (int x = 0; x < g_board.size(); ++x)
                    if (g_board.at(x, y) != 0)
                        return send(std::to_string(x) + "," + std::to_string(y));
            return send("99,99");
        }
    }
    const auto choice = g_board.choose();
    send("MESSAGE sample: " + std::to_string(choice.candidates) + " candidates, best score " +
         std::to_string(choice.score));
    send("DEBUG stones " + std::to_string(g_board.stones()));
    const int x = choice.x, y = choice.y;
    if (x < 0) return send("ERROR the board is full");
    // The move as a suggestion: the manager answers PLAY x,y.
    if (g_mode == "suggest") return send("SUGGEST " + std::to_string(x) + "," + std::to_string(y));
    g_board.place(x, y, 1);
    const std::string answer = std::to_string(x) + "," + std::to_string(y);
    // A second move in the same write: it is there when the arena next asks.
    if (g_mode == "twice" && g_board.stones() >= g_at_ply) return send(answer + "\n" + answer);
    send(answer);
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
        const auto [command, rest] = gomocup_brain::split(line);
        if (command.empty()) continue;
        if (command == "START") {
            const int size = std::atoi(rest.c_str());
            if (g_mode == "start-error" || size < 5 || size > 26) {
                send("ERROR unsupported size or other error");
                continue;
            }
            g_board.start(size);
            send("OK");
        } else if (command == "RESTART") {
            if (g_mode == "no-restart") {
                send("UNKNOWN RESTART");
                continue;
            }
            g_board.clear();
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
            if (g_board.size() == 0) {
                send("ERROR no START");
                continue;
            }
            g_board.clear();
            move();
        } else if (command == "TURN") {
            int x = 0, y = 0;
            if (!gomocup_brain::parse_xy(rest, x, y) || !g_board.place(x, y, 2)) {
                send("ERROR bad TURN" + rest);
                continue;
            }
            move();
        } else if (command == "BOARD") {
            gomocup_brain::read_board(g_board, read_line, [](const std::string& bad) {
                send("ERROR bad BOARD line " + bad);
            });
            move();
        } else if (command == "PLAY") {
            int x = 0, y = 0;
            if (!gomocup_brain::parse_xy(rest, x, y) || !g_board.place(x, y, 1)) {
                send("ERROR bad PLAY" + rest);
                continue;
            }
            send(std::to_string(x) + "," + std::to_string(y));
        } else if (command == "END") {
            return 0;
        } else {
            send("UNKNOWN " + command);
        }
    }
    return 0;
}
