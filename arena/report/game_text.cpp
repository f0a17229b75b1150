#include "arena/report/game_text.hpp"

#include <iomanip>

#include "arena/games/registry.hpp"
#include "arena/record/escape.hpp"
#include "arena/record/params_text.hpp"

namespace arena::report {
namespace {

constexpr const char* kSides[2] = {"first", "second"};

// The boards from the start, one after each move, until a stored move does
// not replay.
void print_boards(std::ostream& out, const store::StoredGame& g) {
    const auto& s = g.summary;
    const auto game = games::make_game(g.game, record::parse_params(g.params));
    auto state = game->new_initial_state();
    out << state->render();
    for (const auto& m : g.moves) {
        const auto move = state->parse_move(m.move);
        if (!move || !state->is_legal(*move)) {
            out << "(stored move " << m.ply << " '" << m.move << "' does not replay)\n";
            break;
        }
        state->apply(*move);
        out << "\n" << m.ply << ". " << (m.side == 1 ? s.first : s.second) << ": " << m.move;
        if (m.by_arena) {
            out << "  (played by the arena)";
        } else {
            out << "  " << std::fixed << std::setprecision(1)
                << static_cast<double>(m.time_us) / 1000.0 << " ms";
        }
        out << "\n";
        for (const auto& info : m.info)
            out << "   info " << record::escape_controls(info) << "\n";
        out << state->render();
    }
}

// What each side played under, when the two differ (time odds, search
// limits); games stored before controls were kept have none.
void print_controls(std::ostream& out, const store::StoredGame& g) {
    if (g.controls[0].empty() || g.controls[0] == g.controls[1]) return;
    out << "played under: " << record::escape_controls(g.summary.first) << " "
        << record::escape_controls(g.controls[0]) << ", "
        << record::escape_controls(g.summary.second) << " "
        << record::escape_controls(g.controls[1]) << "\n";
}

// What the memory limit counts (docs/database.md): a cgroup's charge, or
// the sum of resident sets without one. Games stored before peak memory was
// recorded have none.
void print_peak_memory(std::ostream& out, const store::StoredGame& g) {
    if (!g.peak_memory[0] && !g.peak_memory[1]) return;
    const auto& s = g.summary;
    out << "peak memory (as the memory limit counts it):";
    for (int side = 1; side <= 2; ++side) {
        out << (side == 1 ? " " : ", ") << (side == 1 ? s.first : s.second) << " ";
        if (const auto& bytes = g.peak_memory[side - 1]) {
            out << std::fixed << std::setprecision(1)
                << static_cast<double>(*bytes) / (1024.0 * 1024.0) << " MiB";
        } else {
            out << "not known";
        }
    }
    out << "\n";
}

// For a fault, the end of what the bot at fault wrote on stderr (of both
// bots when neither could start).
void print_fault_logs(std::ostream& out, const store::StoredGame& g, const std::string& db) {
    const auto& s = g.summary;
    if (s.termination == "normal") return;
    bool any = false;
    for (int side = 1; side <= 2; ++side) {
        const bool lost = (side == 1 && s.result == "0-1") || (side == 2 && s.result == "1-0") ||
                          s.result == "1/2-1/2";
        const std::string tail = record::stderr_tail(g.stderr_logs[side - 1]);
        if (!lost || tail.empty()) continue;
        out << (side == 1 ? s.first : s.second) << "'s stderr: " << tail << "\n";
        any = true;
    }
    if (any) out << "(all of it: arena log " << db << " " << s.id << ")\n";
}

// One bot's stderr, or its transcript, under its heading.
void print_bot_log(std::ostream& out, const store::StoredGame& g, int side, bool transcript) {
    const std::string name =
        record::escape_controls(side == 0 ? g.summary.first : g.summary.second);
    if (!transcript) {
        const auto& text = g.stderr_logs[side];
        out << "--- " << name << " (" << kSides[side] << ") ---\n";
        if (text.empty()) {
            out << "(nothing on stderr)\n";
            return;
        }
        out << record::escape_controls(text, true);
        if (text.back() != '\n') out << "\n";
        return;
    }
    out << "--- " << name << " (" << kSides[side] << "): transcript ---\n";
    if (g.transcripts[side].empty()) {
        out << "(no transcript kept: run with transcript: true or --transcript)\n";
    } else {
        out << record::escape_controls(g.transcripts[side], true);
    }
}

}  // namespace

void print_game_list(std::ostream& out, const std::vector<store::GameSummary>& games) {
    out << std::setw(7) << "id" << std::setw(7) << "index"
        << "  " << std::left << std::setw(16) << "first" << std::setw(16) << "second"
        << std::setw(9) << "result" << std::setw(10) << "ending" << std::right << std::setw(6)
        << "plies" << std::setw(10) << "seconds"
        << "  detail\n";
    for (const auto& g : games) {
        out << std::setw(7) << g.id << std::setw(7) << g.slot.index + 1 << "  " << std::left
            << std::setw(16) << record::escape_controls(g.first) << std::setw(16)
            << record::escape_controls(g.second) << std::setw(9) << g.result << std::setw(10)
            << g.termination << std::right << std::setw(6) << g.plies << std::setw(10) << std::fixed
            << std::setprecision(2) << static_cast<double>(g.duration_us) / 1e6 << "  "
            << record::escape_controls(g.detail) << "\n";
    }
}

void print_game_replay(std::ostream& out, const store::StoredGame& game, const std::string& db) {
    const auto& s = game.summary;
    out << "game " << s.id << ": " << s.first << " (first) vs " << s.second << ", " << game.game
        << " " << game.params << "\n";
    print_boards(out, game);
    out << "\nresult " << s.result << " (" << s.termination
        << (s.detail.empty() ? "" : ": " + record::escape_controls(s.detail)) << ")\n";
    print_controls(out, game);
    print_peak_memory(out, game);
    print_fault_logs(out, game, db);
}

std::string missing_player(const store::StoredGame& game, const std::string& bot) {
    const auto& s = game.summary;
    if (bot == s.first || bot == s.second) return "";
    return "game " + std::to_string(s.id) + " has no bot '" + record::escape_controls(bot) +
           "'; its bots: " + record::escape_controls(s.first) + " (first), " +
           record::escape_controls(s.second) + " (second)";
}

void print_game_log(std::ostream& out, const store::StoredGame& game,
                    const std::optional<std::string>& bot, bool transcript) {
    const auto& s = game.summary;
    out << "game " << s.id << ": " << record::escape_controls(s.first) << " (first) vs "
        << record::escape_controls(s.second) << ", " << game.game << " " << game.params
        << ", result " << s.result << " (" << s.termination << ")\n";
    for (int side = 0; side < 2; ++side) {
        if (bot && *bot != (side == 0 ? s.first : s.second)) continue;
        out << "\n";
        print_bot_log(out, game, side, transcript);
    }
}

}  // namespace arena::report
