#include "bots/gomoku/pro_eval.hpp"

#include "bots/gomoku/engine.hpp"

namespace arena::bots::gomoku {
namespace {

constexpr int kDoubleThreat = 5000;

}  // namespace

std::array<int, kEvalTerms> eval_terms(const Board& b) {
    const int me = b.to_move();
    const int op = other(me);
    const bool their_three = b.flex4_count(op) > 0;
    return {
        b.count43(me) > 0,
        b.count33(me) > 0 && b.four_count(op) == 0 && !their_three,
        b.four_count(me) == 0 && two_open_threes(b, op),
        their_three && b.four_count(me) == 0,
        b.count43(op) > 0,
        b.count33(op) > 0,
        their_three,
    };
}

std::vector<int> eval_features(const Board& b) {
    const int me = b.to_move();
    std::vector<int> x;
    x.reserve(kEvalFeatures);
    for (const int color : {me, other(me)})
        x.insert(x.end(), b.combo_counts(color).begin(), b.combo_counts(color).end());
    const auto terms = eval_terms(b);
    x.insert(x.end(), terms.begin(), terms.end());
    x.push_back(1);
    return x;
}

int evaluate(const Board& b, const EvalWeights& w, int defender, int percent) {
    const int me = b.to_move();
    const auto& mine = b.combo_counts(me);
    const auto& theirs = b.combo_counts(other(me));
    int a = 0, t = 0, empty = 0;
    for (int k = 0; k < kCombos; ++k) {
        a += w.mine[k] * mine[k];
        t += w.theirs[k] * theirs[k];
        empty += mine[k];
    }
    // The scaled block is measured from its value on a board of quiet
    // cells: only what the cells make beyond that weighs `percent`.
    if (defender == me)
        t += (t - w.theirs[kQuietCombo] * empty) * (percent - 100) / 100;
    else if (defender == other(me))
        a += (a - w.mine[kQuietCombo] * empty) * (percent - 100) / 100;
    int value = w.bias + a + t;
    const auto terms = eval_terms(b);
    for (int i = 0; i < kEvalTerms; ++i)
        value += w.terms[i] * terms[i];
    return value;
}

int classic_evaluate(const Board& b) {
    const int me = b.to_move();
    const int op = other(me);
    int value = b.potential(me) - b.potential(op) + (b.shape_score(me) - b.shape_score(op)) / 4;
    if (b.five_count(op) == 0) {
        // Our move. A four-three of ours nearly wins, and so do two open
        // threes made at once when the opponent has no four to answer with;
        // two open threes of the opponent against no four of ours nearly lose.
        if (b.count43(me) > 0)
            value += kDoubleThreat;
        else if (b.count33(me) > 0 && b.four_count(op) == 0 && b.flex4_count(op) == 0)
            value += kDoubleThreat / 2;
        if (b.four_count(me) == 0 && two_open_threes(b, op)) value -= kDoubleThreat;
        // The initiative: an open three of ours to push, a threat of theirs
        // to answer.
        if (b.flex4_count(op) > 0 && b.four_count(me) == 0) value -= 200;
    }
    return value;
}

}  // namespace arena::bots::gomoku
