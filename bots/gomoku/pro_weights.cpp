// The weights of gomoku-pro's evaluation (pro_eval.hpp), written by
// gomoku-pro-tune (pro_tune.cpp) from 41491 positions of 1778 games;
// held-out log-loss 0.5186 (hand-set evaluation 0.6171).
// clang-format off
#include "bots/gomoku/pro_eval.hpp"

namespace arena::bots::gomoku {

const EvalWeights& tuned_eval_weights() {
    static const EvalWeights w{
        {-128, -234, -263, -360, -206, -251, -265, -283, -233, -285, -380,
         -363, -253, -192, -172, -295, -345, -121, -215, -11, -36, -342,
         -333, -79, -21, 63, 192, 121, 129, 82, 109, 21, 633,
         600, 3342, 0, 0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
        {230, 256, 287, 378, 232, 252, 287, 281, 242, 272, 418,
         393, 258, 223, 195, 263, 332, 143, 191, 72, 63, 273,
         446, 128, 122, -27, -59, 295, -163, -148, -37, -55, -470,
         -379, -936, -83, -199, 196, -384, -979, -976, -1168, -690, 220,
         -571, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
        {2327, 5632, -4561, 262, -374, -780, -267},
        -1430};
    return w;
}

}  // namespace arena::bots::gomoku
