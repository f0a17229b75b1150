#pragma once
// What `arena match` prints as it goes and at the end: a line per finished
// game (with an SPRT, the LLR after it, and every kSprtReportPairs pairs the
// head-to-head block), and the summary per bot as a table or JSON. The
// SPRT's own text (the LLR, the block, the decision, the JSON) is the report
// layer's (report/sprt_text.hpp), which the tournament does not use: the
// caller gives it.

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "arena/match/close_calls.hpp"
#include "arena/match/tally.hpp"
#include "arena/rating/sprt.hpp"
#include "arena/record/game_record.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/gauntlet_sprt.hpp"
#include "arena/tournament/runner.hpp"
#include "arena/tournament/schedule.hpp"

namespace arena::tournament {

// The head-to-head block is printed after every this many pairs.
inline constexpr std::int64_t kSprtReportPairs = 16;

// The SPRT's text in the match's lines.
struct SprtText {
    // What follows a game's line: "  LLR x (lower, upper)".
    std::function<std::string(const rating::SprtResult&)> llr;
    // The head-to-head block of BOT1's counted pairs against BOT2; with an
    // SPRT, and the LLR line.
    std::function<void(std::ostream&, const OpponentTest&)> block;
    // The test as JSON, in the summary of --json.
    std::function<nlohmann::json(const OpponentTest&)> json{};
    // The decision's line, or `undecided` when there is none.
    std::function<void(std::ostream&, rating::SprtDecision, const std::string& undecided)>
        decision{};
};

// "game 3/10: a vs b  1-0  connect  17 plies  0.25 s", or for a stored game
// (`stored_id` > 0) "game #42 (3/10 stored): ...", then the detail of a
// fault and `suffix`; names and what the bots sent escaped. Flushed at
// once: a match interrupted, or piped into a file, keeps every line of the
// games it played.
void print_game(std::ostream& out, int index, int total, std::int64_t stored_id,
                const record::GameRecord& g, const std::string& suffix);

// The lines of the match's games, as a RunObserver of the runner, and the
// counts for the summary and the close-call warnings.
class MatchLines : public RunObserver {
  public:
    // `config` is the match's (match_config.hpp) and `schedule` the games the
    // runner plays, the first `games` of it; `numbered`: the games are
    // stored in a database of the user's, and shown by their ids. With
    // config.sprt, `sprt_text` writes the test's text.
    MatchLines(const Config& config, const std::vector<Pairing>& schedule, int games, bool numbered,
               SprtText sprt_text, std::ostream& out);

    void game_stored(std::int64_t index, std::int64_t game_id,
                     const record::GameRecord& record) override;

    [[nodiscard]] const match::Tally& tally() const { return tally_; }
    [[nodiscard]] bool has_sprt() const { return has_sprt_; }
    // BOT1's pairs against BOT2, counted from BOT1's side with repeats set
    // aside; with an SPRT, its test.
    [[nodiscard]] const OpponentTest& test() const { return pairs_.tests().front(); }

    // The head-to-head block of the counted pairs (with an SPRT, and the LLR line).
    void print_block(std::ostream& out) const { sprt_text_.block(out, test()); }
    // The line when the test has no decision: "SPRT: no decision after N
    // games", and " (the most --games allows)" when all were played.
    [[nodiscard]] std::string undecided(bool stopped_early) const;
    // A warning line for each bot that keeps answering close to its time
    // limit (match::CloseCallCounter::warnings).
    void print_warnings(std::ostream& out) const;
    // The end of the match: the summary table (print_summary), the
    // head-to-head block (the verdict of every match) and, with an SPRT, the
    // decision, or undecided(); with `json`, the summary as one JSON object
    // (summary_json) with "head_to_head" (head_to_head_json), and with an
    // SPRT also "sprt" (the test) and "max_games".
    void print_end(std::ostream& out, bool json, bool stopped_early) const;

  private:
    std::string game_;
    const std::vector<Pairing>& schedule_;
    int games_;
    bool numbered_;
    SprtText sprt_text_;
    std::ostream& out_;
    match::Tally tally_;
    match::CloseCallCounter close_calls_;
    // The same test the runner's pairing source runs (with an SPRT), kept
    // here for the lines; without one, the pairs counted for the verdict.
    GauntletSprt pairs_;
    bool has_sprt_;
};

// BOT1's counted pairs against BOT2 as JSON, the `head_to_head` of `arena
// match --json`: elo, elo_error, nelo, nelo_error and los (null where
// infinite, and before the first counted pair), the pentanomial counts,
// pairs_counted and repeated_pairs.
[[nodiscard]] nlohmann::json head_to_head_json(const OpponentTest& test);

// The summary table: per bot its games, wins, draws, losses, score and the
// losses by each way a game ends other than normally.
void print_summary(std::ostream& out, const match::Tally& tally);

// The same as JSON: {"game", "games", "bots": [{"name", "games", "wins",
// "draws", "losses", "score", and the losses by termination}]}.
[[nodiscard]] nlohmann::json summary_json(const std::string& game, const match::Tally& tally);

}  // namespace arena::tournament
