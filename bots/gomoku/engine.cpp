#include "bots/gomoku/engine.hpp"

#include <chrono>
#include <iostream>
#include <sstream>

#include "arena/games/gomoku.hpp"

namespace arena::bots::gomoku {

void MoveList::sort() {
    // Insertion sort: lists are short, and it is stable.
    for (int i = 1; i < size; ++i) {
        const std::int16_t s = sq[i];
        const int v = score[i];
        int j = i - 1;
        while (j >= 0 && score[j] < v) {
            sq[j + 1] = sq[j];
            score[j + 1] = score[j];
            --j;
        }
        sq[j + 1] = s;
        score[j + 1] = v;
    }
}

void load_state(Board& board, const games::State& state) {
    const auto* gomoku = dynamic_cast<const games::GomokuState*>(&state);
    if (gomoku == nullptr) throw games::GameError("not a gomoku position");
    const int size = gomoku->size();
    board.reset(size,
                gomoku->rule() == games::GomokuRule::kExact5 ? Rule::kExact5 : Rule::kFreestyle);
    for (int row = 0; row < size; ++row) {
        for (int col = 0; col < size; ++col) {
            const int who = gomoku->at(col, row);
            if (who != games::GomokuState::kEmpty) board.put(board.sq(col, row), who);
        }
    }
    board.set_to_move(gomoku->current_player());
}

std::string square_name(const Board& board, Sq s) {
    if (s == kNoSq) return "none";
    return std::string(1, static_cast<char>('a' + board.col(s))) + std::to_string(board.row(s) + 1);
}

// Do a and b lie on one line of direction d?
[[nodiscard]] static bool same_line(const Board& b, Sq x, Sq y, int d) {
    switch (d) {
        case 0:
            return b.row(x) == b.row(y);
        case 1:
            return b.col(x) == b.col(y);
        case 2:
            return b.col(x) - b.row(x) == b.col(y) - b.row(y);
        default:
            return b.col(x) + b.row(x) == b.col(y) + b.row(y);
    }
}

bool two_open_threes(const Board& b, int color) {
    if (b.flex4_count(color) < 2) return false;
    Sq first = kNoSq;
    int first_dir = 0;
    bool found = false;
    b.flex4s(color).for_each([&](Sq s) {
        if (found) return;
        if (first == kNoSq) {
            first = s;
            for (int d = 0; d < Board::kDirs; ++d)
                if (b.pattern(color, d, s) >= kB4) first_dir = d;
            return;
        }
        if (!same_line(b, first, s, first_dir)) found = true;
    });
    return found;
}

void near_moves(const Board& board, int radius, MoveList& out) {
    out.size = 0;
    board.candidates().for_each([&](Sq s) {
        if (radius >= 2 || board.near1(s) > 0) out.add(s);
    });
    if (out.size > 0) return;
    if (board.stones() == 0) {
        out.add(board.centre());
        return;
    }
    for (int row = 0; row < board.size(); ++row)
        for (int col = 0; col < board.size(); ++col)
            if (board.is_empty(board.sq(col, row))) out.add(board.sq(col, row));
}

GomokuEngine::GomokuEngine() {
    // Build the pattern tables now, before the bot says `ready`.
    (void)pattern_table(Rule::kFreestyle);
    (void)pattern_table(Rule::kExact5);
}

void GomokuEngine::new_game(const games::Game& game, int /*player*/) {
    if (game.name() != "gomoku") throw games::GameError("this bot plays gomoku only");
}

games::Move GomokuEngine::choose(const games::State& state, const protocol::Go& go,
                                 const InfoSink& info) {
    // The arena measures from writing `go` to reading `move`, and on a busy
    // machine either process can wait tens of milliseconds for a core (seen:
    // 35 ms at a load of 10 on 2 cores, and a search cut at its hard limit
    // answering 50 ms late at a load of 4). Keep reserve_ms() back, on top
    // of SearchClock's own margin.
    go_ = go;
    if (go.move_ms > 0)
        go_.move_ms = std::max<std::int64_t>(1, go.move_ms - reserve_ms(go.move_ms));
    start_ = SearchClock::Clock::now();
    const SearchClock clock(go_, soft_fraction_);
    timed_ = true;
    search_limits_ = SearchLimits::of(go);
    load_state(board_, state);
    const Sq s = think(clock, info);
    return board_.to_index(s);
}

std::int64_t GomokuEngine::reserve_ms(std::int64_t move_ms) const {
    return std::min(move_ms / 2, 35 + move_ms / 10);
}

SearchClock::Clock::time_point GomokuEngine::deadline(double fraction) const {
    if (!timed_) return SearchClock::Clock::time_point::max();
    // SearchClock's usable time: the limit less its margin.
    std::int64_t ms = go_.move_ms;
    if (go_.clock_ms)
        ms = std::min<std::int64_t>(ms > 0 ? ms : *go_.clock_ms, *go_.clock_ms / 20 + 1);
    const std::int64_t usable =
        std::max<std::int64_t>(1, ms - std::clamp<std::int64_t>(ms / 10, 8, 150));
    return start_ + std::chrono::microseconds(
                        static_cast<std::int64_t>(static_cast<double>(usable) * 1000.0 * fraction));
}

Sq GomokuEngine::think_untimed(const InfoSink& info) {
    timed_ = false;
    search_limits_ = {};
    const Sq s = think(SearchClock::unlimited(), info);
    timed_ = true;
    return s;
}

bool setup_board(Board& board, int size, Rule rule, const std::string& moves) {
    board.reset(size, rule);
    std::istringstream in(moves);
    std::string word;
    while (in >> word) {
        if (word.size() < 2 || word[0] < 'a' || word[0] >= 'a' + size) return false;
        const int col = word[0] - 'a';
        const int row = std::stoi(word.substr(1)) - 1;
        if (row < 0 || row >= size) return false;
        const Sq s = board.sq(col, row);
        if (!board.is_empty(s) || board.wins(board.to_move(), s)) return false;
        board.make(s);
    }
    return true;
}

namespace {

struct BenchPosition {
    int size;
    Rule rule;
    const char* moves;
};

// A few diverse positions: openings, middle games with threats, exact5, a
// small and a large board.
constexpr std::array<BenchPosition, 8> kBench = {{
    {15, Rule::kFreestyle, "h8"},
    {15, Rule::kFreestyle, "h8 i9 g9 i7 i8 g7 h7 h6"},
    {15, Rule::kFreestyle, "h8 h9 i8 g8 i9 i7 j10 k11 g6 j9 f6 e5 g10"},
    {15, Rule::kExact5, "h8 i9 g9 i7 i8 g7 h7 h6 h9 h10 j9 f7"},
    {15, Rule::kExact5, "h8 g7 i9 j10 g9 f9 i7 i8 h6 g5 j8"},
    {9, Rule::kFreestyle, "e5 d4 e4 e6 d5 c6 f6 g7"},
    {20, Rule::kFreestyle, "j10 k11 k10 i10 l9 m8 j11 j9 l11 l10"},
    {15, Rule::kFreestyle, "h8 i9 i8 g8 j8 k8 j9 h7 j7 j10 k6 l5 i6"},
}};

}  // namespace

int run_bench(GomokuEngine& engine) {
    std::uint64_t nodes = 0;
    const auto start = std::chrono::steady_clock::now();
    const InfoSink quiet = [](std::string_view) {};
    for (const auto& p : kBench) {
        if (!setup_board(engine.board(), p.size, p.rule, p.moves)) {
            std::cerr << "bench: bad position '" << p.moves << "'\n";
            return 1;
        }
        const Sq s = engine.think_untimed(quiet);
        std::cerr << "bench: " << p.size << "x" << p.size << " "
                  << (p.rule == Rule::kExact5 ? "exact5" : "freestyle") << " '" << p.moves
                  << "': " << square_name(engine.board(), s) << " nodes " << engine.nodes() << "\n";
        nodes += engine.nodes();
    }
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    std::cout << "nodes " << nodes << "\n"
              << "nps " << nodes * 1000 / static_cast<std::uint64_t>(std::max<std::int64_t>(1, ms))
              << "\n";
    return 0;
}

std::string info_line(const Board& board, int depth, int score, std::uint64_t nodes, Sq best,
                      std::int64_t ms) {
    std::string line = "depth " + std::to_string(depth) + " score " + std::to_string(score) +
                       " nodes " + std::to_string(nodes);
    if (ms > 0) line += " nps " + std::to_string(nodes * 1000 / static_cast<std::uint64_t>(ms));
    line += " time " + std::to_string(ms) + " pv " + square_name(board, best);
    return line;
}

}  // namespace arena::bots::gomoku
