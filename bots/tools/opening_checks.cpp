#include "bots/tools/opening_checks.hpp"

#include <charconv>
#include <cstdint>
#include <string_view>

#include "arena/games/reversi.hpp"
#include "bots/connect4/board.hpp"
#include "bots/connect4/exact.hpp"
#include "bots/gomoku/board.hpp"
#include "bots/gomoku/engine.hpp"
#include "bots/gomoku/threats.hpp"
#include "bots/gomoku/vcf.hpp"
#include "bots/reversi/alphabeta.hpp"
#include "bots/reversi/board.hpp"

namespace arena::openings {

// ---- Connect-4 -----------------------------------------------------------------

struct C4Judge::Impl {
    c4::Geometry geometry;
    c4::Masks<std::uint64_t> masks{geometry};
    c4::Board<std::uint64_t> board{geometry, masks};
    c4::ExactTable table;
    explicit Impl(int log2_entries) : table(log2_entries) {}

    // Plays the line; false when a move is not a column, is not playable or
    // ends the game.
    bool load(const std::vector<std::string>& moves) {
        board.clear();
        for (const std::string& text : moves) {
            if (text.size() != 1 || text[0] < '1' || text[0] > '7') return false;
            const int col = text[0] - '1';
            if (!board.can_play(col) || board.is_winning_move(col)) return false;
            board.play(col);
        }
        return !board.full();
    }
};

C4Judge::C4Judge(int log2_entries) : impl_(std::make_unique<Impl>(log2_entries)) {}
C4Judge::~C4Judge() = default;

std::optional<C4Verdict> C4Judge::judge(const std::vector<std::string>& moves, int threshold) {
    if (!impl_->load(moves)) return std::nullopt;
    C4Verdict v;
    v.immediate_win = impl_->board.can_win_next();
    if (v.immediate_win) return v;
    // No score on 7 x 6 exceeds 21 (a win needs 4 or more of the winner's stones).
    if (threshold >= impl_->geometry.first_max) {
        v.within = true;
        return v;
    }
    c4::ExactSolver<std::uint64_t> solver(impl_->board, impl_->table);
    int move = -1;
    // Fail-soft null windows: score <= threshold, then score >= -threshold.
    if (solver.root(threshold, threshold + 1, move) > threshold) return v;
    v.within = solver.root(-threshold - 1, -threshold, move) > -threshold - 1;
    return v;
}

std::optional<int> C4Judge::score(const std::vector<std::string>& moves) {
    if (!impl_->load(moves)) return std::nullopt;
    c4::ExactSolver<std::uint64_t> solver(impl_->board, impl_->table);
    return solver.solve().lo;
}

// ---- Gomoku ------------------------------------------------------------------

namespace {

// The number after `key` in an info line, if there is one.
std::optional<int> field_of(std::string_view line, std::string_view key) {
    const auto at = line.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    const std::string_view rest = line.substr(at + key.size());
    int value = 0;
    if (std::from_chars(rest.data(), rest.data() + rest.size(), value).ec != std::errc{})
        return std::nullopt;
    return value;
}

}  // namespace

std::optional<GomokuVerdict> judge_gomoku(const std::string& rule,
                                          const std::vector<std::string>& moves,
                                          const GomokuCriteria& criteria) {
    namespace gk = bots::gomoku;
    if (rule != "freestyle" && rule != "exact5") return std::nullopt;
    const gk::Rule r = rule == "exact5" ? gk::Rule::kExact5 : gk::Rule::kFreestyle;
    std::string text;
    for (const std::string& m : moves)
        text += m + " ";
    gk::VcfOptions options;
    options.max_depth = criteria.search_depth;
    gk::VcfEngine engine(options);
    gk::Board& board = engine.board();
    // setup_board refuses occupied and off-board cells and a move that wins.
    try {
        if (!gk::setup_board(board, 15, r, text)) return std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;  // a row that is not a number
    }
    if (board.full()) return std::nullopt;

    GomokuVerdict v;
    {
        gk::ThreatSolver threats(board);
        threats.set_limits(criteria.vcf_nodes);
        v.vcf_to_move = threats.vcf(criteria.vcf_depth) != gk::kNoSq;
        v.undecided = v.undecided || threats.aborted();
    }
    {
        board.make_null();
        gk::ThreatSolver threats(board);
        threats.set_limits(criteria.vcf_nodes);
        v.vcf_other = threats.vcf(criteria.vcf_depth) != gk::kNoSq;
        v.undecided = v.undecided || threats.aborted();
        board.unmake_null();
    }
    // Each completed iteration sends "depth D score S ...": the last line is
    // the deepest, and the one before it (when the search did not stop at
    // depth 1, on a proven result) the depth below.
    std::vector<int> scores;
    (void)engine.think_untimed([&scores](std::string_view line) {
        if (const auto score = field_of(line, " score "); score && field_of(line, "depth "))
            scores.push_back(*score);
    });
    v.score = scores.empty() ? 0 : scores.back();
    v.score_before = scores.size() < 2 ? v.score : scores[scores.size() - 2];
    return v;
}

// ---- Reversi -----------------------------------------------------------------

std::optional<int> reversi_value(const std::vector<std::string>& moves, int depth) {
    games::ReversiState state;
    for (const std::string& text : moves) {
        if (state.is_over()) return std::nullopt;
        const auto m = state.parse_move(text);
        if (!m || !state.is_legal(*m)) return std::nullopt;
        state.apply(*m);
    }
    if (state.is_over()) return std::nullopt;
    const bots::reversi::Position pos = bots::reversi::position_of(state);
    if (pos.moves() == 0) return std::nullopt;
    bots::reversi::Searcher searcher(20);
    return searcher.value(pos, depth);
}

}  // namespace arena::openings
