// pbrain-community: a Gomoku brain that behaves the way the community's
// strong Gomocup engines do, standing in for them in the arena's tests. It
// is self-contained on purpose (no arena code).
//
//   pbrain-community [--reserve-mb N] [--tag X]
//
// What it does as they do:
//   - At start it reserves a large range of address space (N MiB, default
//     4096, PROT_NONE and MAP_NORESERVE: no memory is used), as engines with
//     big hash tables and neural networks do. When the reservation fails it
//     says so on stderr and exits with status 1.
//   - On its first move it reads its config file from the folder named by
//     `INFO folder`, in a subfolder of its own name as the protocol asks
//     (<folder>/pbrain-community/config.txt), and writes it with defaults
//     when it is missing; each process counts itself in it (`starts=N`).
//     It reports what it did in a MESSAGE line: `MESSAGE config created
//     starts=1` or `MESSAGE config read starts=N`.
//   - It budgets each move exactly as Rapfi does (Rapfi/search/timecontrol.cpp):
//     maximum = min(timeout_turn, time_left / min(7, moves left)) - 30 ms
//     (time_left unlimited when timeout_match is 0 or time_left is
//     2147483647), measured from the moment it read the request, and thinks
//     (busy) until the budget is used.
//   - While it thinks it prints status lines of its own that are not part of
//     the protocol, as PentaZen does: ` ev +v13 nd 532 tm 1 sp 532` every
//     100 ms.
//
// Play: win at once if it can, else block the opponent's five, else the
// empty cell next to the stones with the best simple line score.

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include "gomocup_brain.hpp"

namespace {

using gomocup_brain::send;

using Clock = std::chrono::steady_clock;
constexpr std::int64_t kUnlimited = 2'147'483'647;

// Rapfi's defaults (Rapfi/config.cpp): TurnTimeReserved, MatchSpaceMin.
struct Settings {
    std::int64_t reserve_ms = 30;
    std::int64_t match_space_min = 7;
    std::int64_t status_every_ms = 100;
    std::int64_t starts = 0;
};

struct Info {
    std::int64_t timeout_turn = 30'000;
    std::int64_t timeout_match = 0;
    std::int64_t time_left = kUnlimited;
    std::string folder;
};

gomocup_brain::Board g_board;  // 1 mine, 2 the opponent's
Info g_info;
Settings g_settings;
bool g_config_done = false;

// The config file, as real brains keep one: created with defaults on the
// first run, read on later ones; `starts` counts the processes that read it.
void load_config() {
    if (g_config_done) return;
    g_config_done = true;
    if (g_info.folder.empty()) {
        send("MESSAGE config none (no INFO folder)");
        return;
    }
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(g_info.folder) / "pbrain-community";
    const fs::path file = dir / "config.txt";
    std::error_code ec;
    const bool existed = fs::exists(file, ec);
    if (existed) {
        std::ifstream in(file);
        std::map<std::string, std::int64_t*> keys = {
            {"reserve_ms", &g_settings.reserve_ms},
            {"match_space_min", &g_settings.match_space_min},
            {"status_every_ms", &g_settings.status_every_ms},
            {"starts", &g_settings.starts}};
        for (std::string line; std::getline(in, line);) {
            const auto eq = line.find('=');
            if (eq == std::string::npos) continue;
            const auto key = keys.find(line.substr(0, eq));
            if (key != keys.end()) *key->second = std::atoll(line.c_str() + eq + 1);
        }
    }
    ++g_settings.starts;
    fs::create_directories(dir, ec);
    std::ofstream out(file, std::ios::trunc);
    out << "reserve_ms=" << g_settings.reserve_ms
        << "\nmatch_space_min=" << g_settings.match_space_min
        << "\nstatus_every_ms=" << g_settings.status_every_ms << "\nstarts=" << g_settings.starts
        << "\n";
    out.close();
    if (!out) {
        send("MESSAGE config cannot be written: " + file.string());
        return;
    }
    send(std::string("MESSAGE config ") + (existed ? "read" : "created") +
         " starts=" + std::to_string(g_settings.starts));
}

// Rapfi's maximum turn time (Rapfi/search/timecontrol.cpp, TimeControl::init).
std::int64_t budget_ms() {
    std::int64_t left = g_info.time_left;
    if (g_info.timeout_match == 0 || left >= kUnlimited) left = INT64_MAX;
    const std::int64_t moves_left =
        std::max<std::int64_t>(1, (g_board.size() * g_board.size() - g_board.stones()) / 2);
    const std::int64_t share = left / std::min(g_settings.match_space_min, moves_left);
    return std::max<std::int64_t>(std::min(g_info.timeout_turn, share) - g_settings.reserve_ms, 0);
}

// Thinks (busy) until the budget from `start` is used, printing status lines.
void move(Clock::time_point start) {
    load_config();
    const auto budget = std::chrono::milliseconds(budget_ms());
    const auto every =
        std::chrono::milliseconds(std::max<std::int64_t>(g_settings.status_every_ms, 1));
    auto next_status = start + every;
    std::uint64_t nodes = 0;
    volatile std::uint64_t sink = 0;
    for (;;) {
        const auto now = Clock::now();
        if (now - start >= budget) break;
        for (int i = 0; i < 2000; ++i)
            sink = sink + static_cast<std::uint64_t>(i) * 2654435761u;
        ++nodes;
        if (now >= next_status) {
            next_status += every;
            const auto ms =
                std::chrono::duration_cast<std::chrono::milliseconds>(now - start).count();
            send(" ev +v13 nd " + std::to_string(nodes) + " tm " + std::to_string(ms) + " sp " +
                 std::to_string(ms > 0 ? nodes * 1000 / static_cast<std::uint64_t>(ms) : nodes));
        }
    }
    const auto choice = g_board.choose();
    const int x = choice.x, y = choice.y;
    if (x < 0) return send("ERROR the board is full");
    g_board.place(x, y, 1);
    send(std::to_string(x) + "," + std::to_string(y));
}

bool read_line(std::string& line) {
    if (!std::getline(std::cin, line)) return false;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
}

void info(std::istringstream& words) {
    std::string key;
    words >> key;
    key = gomocup_brain::upper(key);
    std::string rest;
    std::getline(words >> std::ws, rest);
    const std::int64_t value = std::atoll(rest.c_str());
    if (key == "TIMEOUT_TURN") g_info.timeout_turn = value;
    if (key == "TIMEOUT_MATCH") g_info.timeout_match = value;
    if (key == "TIME_LEFT") g_info.time_left = value;
    if (key == "FOLDER") g_info.folder = rest;
}

}  // namespace

int main(int argc, char** argv) {
    std::uint64_t reserve_mb = 4096;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i], value = argv[i + 1];
        if (flag == "--reserve-mb") {
            reserve_mb = std::strtoull(value.c_str(), nullptr, 10);
        } else if (flag != "--tag") {
            std::cerr << "pbrain-community: unknown flag " << flag << "\n";
            return 2;
        }
    }
    if (reserve_mb > 0) {
        const std::size_t bytes = static_cast<std::size_t>(reserve_mb) << 20;
        void* range =
            mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (range == MAP_FAILED) {
            std::cerr << "pbrain-community: cannot reserve " << reserve_mb
                      << " MB of address space: " << std::strerror(errno) << "\n";
            return 1;
        }
    }
    std::string line;
    while (read_line(line)) {
        const auto received = Clock::now();
        const auto [command, rest] = gomocup_brain::split(line);
        if (command.empty()) continue;
        if (command == "START") {
            const int size = std::atoi(rest.c_str());
            if (size < 5 || size > 26) {
                send("ERROR unsupported size");
                continue;
            }
            g_board.start(size);
            send("OK");
        } else if (command == "RESTART") {
            g_board.clear();
            send("OK");
        } else if (command == "INFO") {
            std::istringstream rest_words(rest);
            info(rest_words);
        } else if (command == "ABOUT") {
            send(R"(name="pbrain-community", version="1.0", author="arena tests", country="none")");
        } else if (command == "BEGIN") {
            g_board.clear();
            move(received);
        } else if (command == "TURN") {
            int x = 0, y = 0;
            if (!gomocup_brain::parse_xy(rest, x, y) || !g_board.place(x, y, 2)) {
                send("ERROR bad TURN" + rest);
                continue;
            }
            move(received);
        } else if (command == "BOARD") {
            gomocup_brain::read_board(g_board, read_line, [](const std::string&) {});
            move(received);
        } else if (command == "END") {
            return 0;
        } else {
            send("UNKNOWN " + command);
        }
    }
    return 0;
}
