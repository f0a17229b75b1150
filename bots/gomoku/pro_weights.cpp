// The weights of gomoku-pro's evaluation (pro_eval.hpp), written by
// gomoku-pro-tune (pro_tune.cpp) from 20927 positions of 886 games;
// held-out log-loss 0.5802 (hand-set evaluation 0.6266).
// clang-format off
#include "bots/gomoku/pro_eval.hpp"

namespace arena::bots::gomoku {

const EvalWeights& tuned_eval_weights() {
    static const EvalWeights w{
        {137, -368, -546, -311, -181, -207, -268, -244, -187, -240, -347,
         -471, -218, -172, -138, -507, -376, -96, -176, 14, -134, -399,
         -237, 12, -87, 75, 237, 261, -89, 290, 164, -30, 700,
         1157, 3029, 0, 0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
        {-18, 399, 605, 334, 208, 206, 324, 259, 193, 228, 402,
         510, 219, 202, 164, 418, 329, 116, 147, 23, 82, 322,
         458, 38, 151, -39, -56, 102, -242, -381, -82, -40, -517,
         -729, -987, -483, 179, 394, -395, -888, -837, -1052, -769, 555,
         -5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
        {2559, 4906, -4177, 268, -431, -621, -454},
        -1188};
    return w;
}

}  // namespace arena::bots::gomoku
