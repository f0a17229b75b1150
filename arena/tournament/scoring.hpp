#pragma once
// Course-style points besides Elo: each game gives a bot `win`, `draw` or
// `loss` points (the Tsinghua course's Compete tool counts 2, 1 and 0). A
// config asks for them with the top-level key
//   scoring: { win: 2, draw: 1, loss: 0 }
// and the standings then show each bot's points. A loss by a fault (timeout,
// crash, illegal move, ...) is a loss like any other.

namespace arena::tournament {

struct Scoring {
    int win = 2;
    int draw = 1;
    int loss = 0;
};

inline constexpr int kMaxScoringPoints = 1000;

}  // namespace arena::tournament
