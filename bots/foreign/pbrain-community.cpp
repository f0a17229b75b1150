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
#include <cctype>
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
#include <vector>

namespace {

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

int g_size = 0;
std::vector<int> g_board;  // 0 empty, 1 mine, 2 the opponent's; index y * size + x
int g_stones = 0;
Info g_info;
Settings g_settings;
bool g_config_done = false;

void send(const std::string& line) {
    std::cout << line << "\n" << std::flush;
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
    const std::int64_t moves_left = std::max<std::int64_t>(1, (g_size * g_size - g_stones) / 2);
    const std::int64_t share = left / std::min(g_settings.match_space_min, moves_left);
    return std::max<std::int64_t>(std::min(g_info.timeout_turn, share) - g_settings.reserve_ms, 0);
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

std::pair<int, int> choose() {
    int best_score = -1, bx = -1, by = -1;
    if (g_stones == 0) return {g_size / 2, g_size / 2};
    for (int y = 0; y < g_size; ++y) {
        for (int x = 0; x < g_size; ++x) {
            if (at(x, y) != 0 || !near_stone(x, y)) continue;
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
    for (int i = 0; i < g_size * g_size && bx < 0; ++i) {
        if (g_board[static_cast<std::size_t>(i)] == 0) {
            bx = i % g_size;
            by = i / g_size;
        }
    }
    return {bx, by};
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
    const auto [x, y] = choose();
    if (x < 0) return send("ERROR the board is full");
    at(x, y) = 1;
    ++g_stones;
    send(std::to_string(x) + "," + std::to_string(y));
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
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
}

void info(std::istringstream& words) {
    std::string key;
    words >> key;
    key = upper(key);
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
        std::istringstream words(line);
        std::string command;
        words >> command;
        command = upper(command);
        std::string rest;
        std::getline(words, rest);
        if (command.empty()) continue;
        if (command == "START") {
            const int size = std::atoi(rest.c_str());
            if (size < 5 || size > 26) {
                send("ERROR unsupported size");
                continue;
            }
            g_size = size;
            clear_board();
            send("OK");
        } else if (command == "RESTART") {
            clear_board();
            send("OK");
        } else if (command == "INFO") {
            std::istringstream rest_words(rest);
            info(rest_words);
        } else if (command == "ABOUT") {
            send(R"(name="pbrain-community", version="1.0", author="arena tests", country="none")");
        } else if (command == "BEGIN") {
            clear_board();
            move(received);
        } else if (command == "TURN") {
            int x = 0, y = 0;
            if (g_size == 0 || !parse_xy(rest, x, y) || !on_board(x, y) || at(x, y) != 0) {
                send("ERROR bad TURN" + rest);
                continue;
            }
            at(x, y) = 2;
            ++g_stones;
            move(received);
        } else if (command == "BOARD") {
            clear_board();
            while (read_line(line) && upper(line) != "DONE") {
                int x = 0, y = 0, who = 0;
                if (parse_xy(line, x, y, &who) && on_board(x, y) && (who == 1 || who == 2)) {
                    at(x, y) = who;
                    ++g_stones;
                }
            }
            move(received);
        } else if (command == "END") {
            return 0;
        } else {
            send("UNKNOWN " + command);
        }
    }
    return 0;
}
