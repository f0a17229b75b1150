#pragma once
// `arena match --help`: the command, its bots and options, the SPRT and the
// openings, in words (the options' own lines come from the parser). Text
// only, kept beside the match's settings (match_config.hpp) so that the
// command itself is only its wiring.

#include <string_view>

namespace arena::tournament {

inline constexpr std::string_view kMatchUsage =
    R"(usage: arena match --game GAME [options] BOT1 BOT2

Plays --games games between BOT1 and BOT2, alternating who moves first, and
prints one line per game and a summary per bot. Each BOT is one argument:
'[name=]command [args...]', split like a shell splits words (no shell runs).
A BOT that is one path ending in .so, '[name=]path/strategy.so', is a Tsinghua
course strategy library (protocol/TSINGHUA.md), played through arena-so-host;
it plays connect4 only, and is named after the file by default. --protocol
tsinghua-so (or --protocol1/--protocol2) says the same of any path.

Each bot starts in the current directory, and a relative command or argument
is taken from there; --dir D (both bots), --dir1 D or --dir2 D start it in D
instead, and then its command and arguments are taken from D.

With --db FILE the match is also stored in that results database as a
tournament of its own, so `arena show`, `games`, `log`, `export` and
`standings` work on it. Ctrl-C stops after the games played so far, prints
their summary and exits with status 130.

Each bot speaks the arena's protocol unless told otherwise: --protocol P sets
both bots' protocol, --protocol1 P and --protocol2 P set BOT1's and BOT2's
(overriding --protocol). P is arena1 (protocol/PROTOCOL.md), gomocup (a
Gomocup/Piskvork brain, gomoku only: protocol/GOMOCUP.md) or nboard (an
NBoard engine, reversi only: protocol/NBOARD.md).

Time odds and search limits: --move-ms1, --tolerance-ms1, --game-ms1 and
--inc-ms1 give BOT1 a time control of its own (each overrides --move-ms, ...
for BOT1 only), and --move-ms2, ... BOT2's; --depth1 N and --nodes1 N (and
--depth2, --nodes2) put depth=N and nodes=N on every `go` the bot is sent.

With --sprt elo0=E0,elo1=E1[,alpha=A,beta=B,model=normalized|logistic] the
match is a sequential test of BOT1 against BOT2 (the GSPRT, docs/ratings.md):
H0 "BOT1 is E0 stronger" against H1 "BOT1 is E1 stronger", in normalized Elo
(model=normalized, the default) or Elo (model=logistic); alpha and beta
default to 0.05. Games come in colour-swapped pairs (the same board and
opening, each bot moving first once), and after each pair the log-likelihood
ratio of the pentanomial counts is compared with its bounds: the match stops
as soon as H0 or H1 is accepted, or after --games games (default with
--sprt: 20000, which must be even). Each game's line shows the LLR; every 16
pairs, and at the end, the head-to-head block is printed as `arena sprt`
prints it.

Openings: deterministic bots would replay the same game again and again, so
each colour-swapped pair starts from its own opening. By default that is an
opening of the game's balanced suite (configs/openings, docs/openings.md), in
an order shuffled by --seed, when one is shipped for the board: Connect-4
7x6, Gomoku 15x15 (freestyle and exact5) and Reversi 8x8. --openings FILE
takes them from another file, --openings none starts every game from the
empty board, and --random-plies N plays N random plies instead. Boards
without a suite start from the empty board, or from 4 random plies with
--sprt. $ARENA_OPENINGS_DIR, when set, is where the suites are looked for.

example:
  arena match --game connect4 --games 10 --move-ms 100 \
      build/bots/random 'other=build/bots/random --seed 7'
  arena match --game connect4 --move-ms 50 --sprt elo0=0,elo1=10 \
      build/bots/c4-alphabeta build/bots/random
  arena match --game connect4 --games 20 --move-ms 1000 --depth1 2 --depth2 8 \
      'a=build/bots/c4-alphabeta' 'b=build/bots/c4-alphabeta'
  arena match --game gomoku --games 4 --move-ms 500 --protocol1 gomocup \
      engines/pbrain-embryo 'random=build/bots/random --game gomoku'
)";

}  // namespace arena::tournament
