// tune-target: a TEST FIXTURE for `arena tune`. A Connect-4 bot whose
// strength peaks at known values of two parameters, so that a test can check
// that tuning moves the parameters towards the peak.
//
//   tune-target --x V --y V [--peak-x P] [--peak-y Q] [--range R] [--seed N]
//
//   --x V, --y V   the two tuned parameters, decimals in [0, R] (required)
//   --peak-x P     where the strength peaks (default 70)
//   --peak-y Q     (default 30)
//   --range R      both parameters and the peak lie in [0, R] (default 100)
//   --seed N       seed of the random choices (default 1)
//
// Strength: with d the distance from (x, y) to the peak and D the distance
// from the peak to the farthest corner of the square [0, R]^2,
//   s = 1 - d / D        (a cone: 1 at the peak, 0 at the farthest corner)
// At each move, with probability s the bot plays a good move, otherwise a
// mistake: a uniformly random legal move other than the good ones. The good
// moves: the wins at once; else the blocks of the opponent's wins at once;
// else the best of a 2-ply search (an evaluation by the open windows of
// `connect` cells; wins at once seen at 3 plies), which never lets the
// opponent win at once when another move does not. A 5 %-of-range step in
// distance is worth 55.6 to 68 % of the points everywhere (bots/README.md).
//
// Every random choice (the coin, the move among the good ones or among the
// mistakes) comes from a generator seeded by the seed and the position only
// (position_seed.hpp), with plain modulo, so a game replays identically in a
// fresh or a reused process. The parameters enter only through s: two bots
// with the same seed draw the same coin in the same position, so the stronger
// one plays a good move wherever the weaker one does.
// Plays any Connect-4 board instantly (under a millisecond a move on 7 x 6);
// ignores the time limits.

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "arena/games/connect4.hpp"
#include "bots/common/bot_main.hpp"
#include "bots/common/position_seed.hpp"

namespace {

using arena::games::Connect4State;
using arena::games::GameError;
using arena::games::Move;

constexpr int kMax = arena::games::kConnect4MaxSize;
constexpr int kWin = 1'000'000;
// Plies of the search behind the good move. Deeper searches (4, 6) made
// the score curve no steeper, only slower (bots/README.md).
constexpr int kSearchDepth = 2;

// The bot's place on the strength landscape.
struct Landscape {
    double x = 0, y = 0;
    double peak_x = 70, peak_y = 30;
    double range = 100;

    // The strength s in [0, 1] (see the comment at the top).
    [[nodiscard]] double strength() const {
        const double far_x = std::max(peak_x, range - peak_x);
        const double far_y = std::max(peak_y, range - peak_y);
        const double farthest = std::hypot(far_x, far_y);
        const double d = std::hypot(x - peak_x, y - peak_y);
        return std::clamp(1.0 - d / farthest, 0.0, 1.0);
    }
};

// A copy of a Connect-4 position to search on: make and unmake, wins, and an
// evaluation by the open windows of `connect` cells.
class Grid {
  public:
    explicit Grid(const Connect4State& s)
        : cols_(s.cols()), rows_(s.rows()), connect_(s.connect()), to_move_(s.current_player()) {
        for (int c = 0; c < cols_; ++c) {
            int top = 0;
            for (int r = 0; r < rows_; ++r) {
                cells_[c][r] = static_cast<std::uint8_t>(s.at(c, r));
                if (cells_[c][r] == 1 || cells_[c][r] == 2) top = r + 1;
            }
            while (top < rows_ && cells_[c][top] != Connect4State::kEmpty)
                ++top;
            top_[c] = top;
        }
        collect_windows();
    }

    [[nodiscard]] int cols() const { return cols_; }
    [[nodiscard]] int to_move() const { return to_move_; }
    [[nodiscard]] bool playable(int c) const { return top_[c] < rows_; }

    // Whether the side to move (or `player`) wins at once by playing column c.
    [[nodiscard]] bool wins_with(int c, int player) const {
        if (!playable(c)) return false;
        const int r = top_[c];
        static constexpr std::array<std::array<int, 2>, 4> kDirections{
            {{1, 0}, {0, 1}, {1, 1}, {1, -1}}};
        for (const auto& [dc, dr] : kDirections) {
            int count = 1;
            for (int cc = c + dc, rr = r + dr; inside(cc, rr) && cells_[cc][rr] == player;
                 cc += dc, rr += dr)
                ++count;
            for (int cc = c - dc, rr = r - dr; inside(cc, rr) && cells_[cc][rr] == player;
                 cc -= dc, rr -= dr)
                ++count;
            if (count >= connect_) return true;
        }
        return false;
    }

    // Plays column c for the side to move; returns the row it lands on.
    int play(int c) {
        const int r = top_[c];
        cells_[c][r] = static_cast<std::uint8_t>(to_move_);
        int top = r + 1;
        while (top < rows_ && cells_[c][top] != Connect4State::kEmpty)
            ++top;
        top_[c] = top;
        to_move_ = 3 - to_move_;
        return r;
    }
    void unplay(int c, int r) {
        cells_[c][r] = Connect4State::kEmpty;
        top_[c] = r;
        to_move_ = 3 - to_move_;
    }

    // From the side to move's view: each window of `connect` cells that holds
    // n > 0 pieces of one player and none of the other (nor a blocked cell)
    // is worth 4^(n-1) to that player.
    [[nodiscard]] int evaluate() const {
        int score = 0;
        for (const auto& w : windows_) {
            int mine = 0, theirs = 0;
            for (int i = 0; i < connect_; ++i) {
                const int v = cells_[w[i] / kMax][w[i] % kMax];
                mine += v == to_move_ ? 1 : 0;
                theirs += v == 3 - to_move_ ? 1 : 0;
            }
            if (mine > 0 && theirs == 0) score += 1 << (2 * (std::min(mine, 8) - 1));
            if (theirs > 0 && mine == 0) score -= 1 << (2 * (std::min(theirs, 8) - 1));
        }
        return score;
    }

  private:
    [[nodiscard]] bool inside(int c, int r) const {
        return c >= 0 && c < cols_ && r >= 0 && r < rows_;
    }
    void collect_windows() {
        static constexpr std::array<std::array<int, 2>, 4> kDirections{
            {{1, 0}, {0, 1}, {1, 1}, {1, -1}}};
        for (int c = 0; c < cols_; ++c)
            for (int r = 0; r < rows_; ++r)
                for (const auto& [dc, dr] : kDirections) {
                    std::array<std::uint16_t, kMax> w{};
                    bool open = true;
                    for (int i = 0; i < connect_ && open; ++i) {
                        const int cc = c + i * dc, rr = r + i * dr;
                        open = inside(cc, rr) && cells_[cc][rr] != Connect4State::kBlocked;
                        if (open) w[i] = static_cast<std::uint16_t>(cc * kMax + rr);
                    }
                    if (open) windows_.push_back(w);
                }
    }

    int cols_, rows_, connect_, to_move_;
    std::array<std::array<std::uint8_t, kMax>, kMax> cells_{};
    std::array<int, kMax> top_{};
    std::vector<std::array<std::uint16_t, kMax>> windows_;
};

// Negamax with alpha-beta from the side to move's view; `depth` plies left.
int negamax(Grid& g, int depth, int alpha, int beta, int ply) {
    bool any = false;
    for (int c = 0; c < g.cols(); ++c) {
        if (!g.playable(c)) continue;
        any = true;
        if (g.wins_with(c, g.to_move())) return kWin - ply;
    }
    if (!any) return 0;
    if (depth == 0) return g.evaluate();
    // Centre first: better cut-offs.
    const int centre = (g.cols() - 1) / 2;
    for (int i = 0; i < g.cols(); ++i) {
        const int c = centre + ((i % 2 == 0) ? i / 2 : -(i + 1) / 2);
        if (c < 0 || c >= g.cols() || !g.playable(c)) continue;
        const int r = g.play(c);
        const int score = -negamax(g, depth - 1, -beta, -alpha, ply + 1);
        g.unplay(c, r);
        if (score >= beta) return score;
        alpha = std::max(alpha, score);
    }
    return alpha;
}

// The good moves of the side to move (several when they tie): the wins at
// once; else the blocks of the opponent's wins at once; else the moves with
// the best score of a kSearchDepth-ply search.
std::vector<Move> good_moves(Grid& g) {
    const int me = g.to_move(), them = 3 - me;
    std::vector<Move> good;
    for (int c = 0; c < g.cols(); ++c)
        if (g.wins_with(c, me)) good.push_back(c);
    if (!good.empty()) return good;
    for (int c = 0; c < g.cols(); ++c)
        if (g.wins_with(c, them)) good.push_back(c);
    if (!good.empty()) return good;
    int best = std::numeric_limits<int>::min();
    for (int c = 0; c < g.cols(); ++c) {
        if (!g.playable(c)) continue;
        const int r = g.play(c);
        const int score = -negamax(g, kSearchDepth - 1, -kWin - 1, kWin + 1, 1);
        g.unplay(c, r);
        if (score > best) good.clear();
        if (score >= best) {
            best = score;
            good.push_back(c);
        }
    }
    return good;
}

class TuneTargetEngine : public arena::bots::Engine {
  public:
    TuneTargetEngine(double strength, std::uint64_t seed) : strength_(strength), seed_(seed) {}

    void new_game(const arena::games::Game& game, int /*player*/) override {
        if (game.name() != "connect4") throw GameError("tune-target plays connect4 only");
    }

    // With probability s one of the good moves, otherwise a mistake: one of
    // the other legal moves (any legal move when every one is good).
    [[nodiscard]] Move choose(const arena::games::State& state, const arena::protocol::Go& /*go*/,
                              const arena::bots::InfoSink& /*info*/) override {
        std::mt19937_64 rng(arena::bots::position_seed(seed_, state));
        // A coin in [0, 1) from the top 53 bits.
        const double coin = static_cast<double>(rng() >> 11) * 0x1.0p-53;
        const std::uint64_t pick = rng();
        Grid grid(dynamic_cast<const Connect4State&>(state));
        const std::vector<Move> good = good_moves(grid);
        if (coin < strength_) return good[static_cast<std::size_t>(pick % good.size())];
        std::vector<Move> mistakes;
        for (const Move m : state.legal_moves())
            if (std::find(good.begin(), good.end(), m) == good.end()) mistakes.push_back(m);
        if (mistakes.empty()) mistakes = good;
        return mistakes[static_cast<std::size_t>(pick % mistakes.size())];
    }

  private:
    double strength_;
    std::uint64_t seed_;
};

// A decimal number: the whole of `text`, finite (from_chars: no leading '+').
double parse_decimal(const std::string& flag, const std::string& text) {
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value))
        throw std::invalid_argument("--" + flag + " takes a decimal number, not '" + text + "'");
    return value;
}

}  // namespace

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    std::string x, y, peak_x = "70", peak_y = "30", range = "100";
    arena::bots::BotProgram program;
    program.info = {.name = "tune-target", .author = "", .version = "1"};
    program.summary = "Test fixture for arena tune: Connect-4, strongest at (--peak-x, --peak-y).";
    // clang-format off
    program.flags.add_options()
        ("x", po::value<std::string>(&x), "first tuned parameter, in [0, range] (required)")
        ("y", po::value<std::string>(&y), "second tuned parameter, in [0, range] (required)")
        ("peak-x", po::value<std::string>(&peak_x)->default_value("70"), "x of the peak")
        ("peak-y", po::value<std::string>(&peak_y)->default_value("30"), "y of the peak")
        ("range", po::value<std::string>(&range)->default_value("100"), "the parameters lie in [0, range]");
    // clang-format on
    program.make_engine = [&](const arena::bots::CommonFlags& flags) {
        Landscape l;
        l.range = parse_decimal("range", range);
        if (!(l.range > 0)) throw std::invalid_argument("--range must be positive");
        const auto in_range = [&](const std::string& flag, const std::string& text) {
            if (text.empty()) throw std::invalid_argument("--" + flag + " is required");
            const double v = parse_decimal(flag, text);
            if (v < 0 || v > l.range)
                throw std::invalid_argument("--" + flag + " " + text + " is outside [0, " + range +
                                            "]");
            return v;
        };
        l.x = in_range("x", x);
        l.y = in_range("y", y);
        l.peak_x = in_range("peak-x", peak_x);
        l.peak_y = in_range("peak-y", peak_y);
        return std::make_unique<TuneTargetEngine>(l.strength(), flags.seed);
    };
    return arena::bots::bot_main(argc, argv, program);
}
