// The weights of gomoku-pro's evaluation (pro_eval.hpp), written by
// gomoku-pro-tune (pro_tune.cpp) from 63024 positions of 2665 games;
// held-out log-loss 0.5082 (hand-set evaluation 0.6175).
// clang-format off
#include "bots/gomoku/pro_eval.hpp"

namespace arena::bots::gomoku {

const EvalWeights& tuned_eval_weights() {
    static const EvalWeights w{
        {-57, -309, -266, -315, -175, -229, -227, -270, -215, -269, -308,
         -304, -221, -178, -137, -178, -276, -114, -210, 28, 12, -180,
         -232, -26, -10, 130, 285, 137, 242, 179, 115, 119, 652,
         669, 3377, 0, 0, 0, 0, 0, 0, 0, 0, 0,
         0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
        {148, 292, 299, 318, 195, 229, 243, 266, 226, 250, 352,
         315, 226, 202, 163, 133, 257, 134, 190, 21, 55, 178,
         328, 75, 101, -89, -117, 230, -172, -197, -60, -148, -502,
         -524, -995, 8, -178, 9, -479, -1003, -982, -1265, -364, 1143,
         1724, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
        {2264, 5952, -5018, 366, -358, -761, -361},
        -938};
    return w;
}

}  // namespace arena::bots::gomoku
