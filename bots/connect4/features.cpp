#include "bots/connect4/features.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "bots/common/search_limits.hpp"

namespace arena::c4 {

double chain_value(int length, int d1, int d2, int connect) {
    if (length < connect && d1 == 0 && d2 == 0) return 0;
    const int t = std::min(length, connect) + 4 - connect;
    const double p2 = std::pow(10.0, t + 2);
    const double p1 = std::pow(10.0, t + 1);
    const double p0 = std::pow(10.0, t);
    double v = p2;
    if (d1 > 0) v += p1 / (d1 * d1 * d1);
    if (d2 > 0) v += p1 / (d2 * d2 * d2);
    if (d1 * d2 > 0) v += p1 / (d1 * d2 * d1 * d2);
    if (d1 + d2 > 0) v += p0 / (d1 + d2);
    return v;
}

namespace {

constexpr int kDirs[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};  // (dcol, drow)

template <class B>
class FeaturesSearcher final : public Searcher {
  public:
    FeaturesSearcher(const Geometry& g, const FeaturesOptions& o)
        : g_(g), m_(g_), b_(g_, m_), o_(o) {}

    int choose(const games::Connect4State& state, const protocol::Go& go,
               const bots::InfoSink& info) override {
        b_.set(state);
        evals_ = 0;
        // `go depth=1` looks at own gains only; nodes= is not honoured (at
        // most 7 x 8 evaluations on the usual board).
        const int plies = std::min(o_.plies, bots::SearchLimits::of(go).max_depth(o_.plies));
        const int me = b_.to_move();
        const double before = value(me);
        int best_col = -1;
        double best = -std::numeric_limits<double>::infinity();
        for (int i = 0; i < g_.cols; ++i) {
            const int col = g_.order[i];
            if (!b_.can_play(col)) continue;
            if (b_.is_winning_move(col)) {
                best_col = col;
                best = std::numeric_limits<double>::infinity();
                break;
            }
            b_.play(col);
            double v = std::numeric_limits<double>::infinity();
            if (plies >= 2 && !b_.full()) {
                for (int j = 0; j < g_.cols; ++j) {
                    const int reply = g_.order[j];
                    if (!b_.can_play(reply)) continue;
                    if (b_.is_winning_move(reply)) {  // over a million: the game is lost
                        v = -std::numeric_limits<double>::max();
                        break;
                    }
                    b_.play(reply);
                    v = std::min(v, value(me));
                    b_.undo(reply);
                }
            } else {
                v = value(me);
            }
            b_.undo(col);
            if (v > best) {
                best = v;
                best_col = col;
            }
        }
        // The gain of the chosen move; +-10^12 for a won or lost game.
        const double gain = std::isfinite(best) ? best - before : best;
        const long long shown = std::llround(std::clamp(gain, -1e12, 1e12));
        info("depth " + std::to_string(plies) + " score " + std::to_string(shown) + " nodes " +
             std::to_string(evals_) + " pv " + std::to_string(best_col + 1));
        return best_col;
    }

    std::uint64_t nodes() const override { return evals_; }

    // The seed's per-player sums for the current board (index 0: player 1).
    std::array<double, 2> scores() {
        std::array<double, 2> s{};
        const B p1 = b_.to_move() == 1 ? b_.current() : b_.opponent();
        s[0] = player_score(p1);
        s[1] = player_score(b_.occupied() ^ p1);
        return s;
    }
    Board<B>& board() { return b_; }

  private:
    // Our score minus weight times theirs; the difference of two such values
    // is our gain minus the weighted gain of the opponent.
    double value(int me) {
        ++evals_;
        const auto s = scores();
        return s[me - 1] - o_.weight * s[2 - me];
    }
    // 0 off the board, blocked or occupied; else the stones still to drop
    // into the column before (col, row) is filled, counting that one.
    int depth(int col, int row) const {
        if (col < 0 || col >= g_.cols || row < 0 || row >= g_.rows) return 0;
        const int target = g_.cell(col, row);
        if (g_.is_blocked(col, row) || test(b_.occupied(), target)) return 0;
        int d = 1;
        for (int c = b_.top(col); c != target; c = g_.above[c])
            ++d;
        return d;
    }

    double player_score(const B& stones) const {
        auto mine = [&](int c, int r) {
            return c >= 0 && c < g_.cols && r >= 0 && r < g_.rows && test(stones, g_.cell(c, r));
        };
        double total = 0;
        B in_run{};
        for (const auto& d : kDirs) {
            for (int c = 0; c < g_.cols; ++c) {
                for (int r = 0; r < g_.rows; ++r) {
                    if (!mine(c, r) || mine(c - d[0], r - d[1])) continue;
                    int len = 1;
                    while (mine(c + len * d[0], r + len * d[1]))
                        ++len;
                    if (len < 2) continue;
                    for (int k = 0; k < len; ++k)
                        in_run |= bit<B>(g_.cell(c + k * d[0], r + k * d[1]));
                    total += chain_value(len, depth(c - d[0], r - d[1]),
                                         depth(c + len * d[0], r + len * d[1]), g_.connect);
                }
            }
        }
        // Single stones: once each, in their best direction.
        for_each_bit(stones & ~in_run, [&](int i) {
            const int c = g_.col_of(i);
            const int r = g_.row_of(i);
            double v = 0;
            for (const auto& d : kDirs)
                v = std::max(v, chain_value(1, depth(c - d[0], r - d[1]), depth(c + d[0], r + d[1]),
                                            g_.connect));
            total += v;
        });
        return total;
    }

    Geometry g_;
    Masks<B> m_;
    Board<B> b_;
    FeaturesOptions o_;
    std::uint64_t evals_ = 0;
};

}  // namespace

std::unique_ptr<Connect4Engine> make_features_engine(const FeaturesOptions& options) {
    return std::make_unique<Connect4Engine>(
        [options](const Geometry& g) { return make_searcher<FeaturesSearcher>(g, options); });
}

std::array<double, 2> features_scores(const games::Connect4State& state) {
    games::Connect4Config config;
    config.rows = state.rows();
    config.cols = state.cols();
    config.connect = state.connect();
    for (int c = 0; c < state.cols(); ++c)
        for (int r = 0; r < state.rows(); ++r)
            if (state.at(c, r) == games::Connect4State::kBlocked) config.blocked.push_back({c, r});
    const Geometry g(config);
    if (width_for(g) == Width::k64) {
        FeaturesSearcher<std::uint64_t> s(g, {});
        s.board().set(state);
        return s.scores();
    }
    FeaturesSearcher<Wide5> s(g, {});
    s.board().set(state);
    return s.scores();
}

}  // namespace arena::c4
