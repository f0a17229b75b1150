#pragma once
// `arena run`'s progress for people: a line per stored game, or one live
// line on a terminal (games done, rate, time left, faults, the leader and
// the schedule's summary), the schedule's news (a test decided, an entrant
// placed), and, when a run resumes, how much was stored before.

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "arena/match/tally.hpp"
#include "arena/tournament/config.hpp"
#include "arena/tournament/runner.hpp"

namespace arena::tournament {

struct ProgressOptions {
    bool live = false;  // one updating line (on a terminal) instead of a line per game
    int width = 0;      // the terminal's columns, to which the live line is cut; 0: unknown
    // The games of the whole schedule when the run plays a part of it (a
    // shard): each game's line also gives its "schedule position i of N"
    // among them; 0: not a part.
    std::int64_t schedule_games = 0;
    // Where the run says that it resumes a tournament with games stored, and
    // how many are left (stderr); none: it says nothing.
    std::ostream* messages = nullptr;
    // Not live: only the schedule's news (a tune's tables), no line a game.
    bool news_only = false;
};

// Live, and cut to the terminal's width, when `fd` is a terminal.
void fit_to_terminal(ProgressOptions& options, int fd);

class Progress : public RunObserver {
  public:
    Progress(const Config& config, std::ostream& out, ProgressOptions options);

    void run_started(std::int64_t total, std::int64_t stored, const std::string& summary) override;
    void game_stored(std::int64_t index, std::int64_t game_id,
                     const record::GameRecord& record) override;
    void schedule_changed(std::int64_t total, const std::string& summary,
                          const std::vector<std::string>& news) override;
    void batch_stored() override { out_ << std::flush; }
    void run_ended() override;

  private:
    void print_live(bool now_anyway = false);

    const Config& config_;
    std::ostream& out_;
    ProgressOptions options_;
    std::int64_t total_ = 0, done_ = 0, played_ = 0, faults_ = 0;
    match::Tally tally_;  // this run's games only: enough to name a leader
    std::string summary_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_print_{};
};

}  // namespace arena::tournament
