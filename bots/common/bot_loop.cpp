#include "bots/common/bot_loop.hpp"

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "arena/games/registry.hpp"

namespace arena::bots {
namespace {

// Keys of the `game` line that are the time control, not game parameters.
[[nodiscard]] bool is_time_control_key(std::string_view key) {
    return key == "move_ms" || key == "game_ms" || key == "inc_ms";
}

// A bot that cannot follow the arena stops: exit code 2, the reason on stderr.
constexpr int kFailExit = 2;

// Everything the loop remembers between lines.
class Loop {
  public:
    Loop(const BotInfo& info, Engine& engine, std::ostream& out)
        : info_(info), engine_(engine), out_(out) {}

    // Handles one line; returns the exit code when the bot must stop.
    [[nodiscard]] std::optional<int> handle(const std::string& line) {
        engine_.on_line(line);
        auto command = protocol::parse_arena_command(line);
        if (!command) return std::nullopt;  // unknown commands are ignored
        try {
            return std::visit([&](const auto& c) { return on(c, line); }, *command);
        } catch (const games::GameError& e) {
            return fail(line, e.what());
        }
    }

  private:
    std::optional<int> on(const protocol::Hello& hello, const std::string& line) {
        if (hello.version != protocol::kProtocolVersion) {
            return fail(line, "this bot speaks protocol version " +
                                  std::to_string(protocol::kProtocolVersion) + " only");
        }
        if (!info_.name.empty()) send("name " + info_.name);
        if (!info_.author.empty()) send("author " + info_.author);
        if (!info_.version.empty()) send("version " + info_.version);
        send("ready");
        return std::nullopt;
    }

    std::optional<int> on(const protocol::GameStart& start, const std::string& /*line*/) {
        games::Params params;
        for (const auto& [key, value] : start.params) {
            if (!is_time_control_key(key)) params.emplace_back(key, value);
        }
        // Successive games of a match usually share the rules: keep the Game.
        if (!game_ || start.game != game_name_ || params != game_params_) {
            game_.reset();
            state_.reset();
            game_ = games::make_game(start.game, params);  // GameError: see handle()
            game_name_ = start.game;
            game_params_ = std::move(params);
        }
        state_ = game_->new_initial_state();
        engine_.new_game(*game_, start.player);
        return std::nullopt;
    }

    std::optional<int> on(const protocol::Position& position, const std::string& line) {
        if (!game_) return fail(line, "no game has started");
        auto state = game_->new_initial_state();
        for (const auto& text : position.moves) {
            const auto move = state->parse_move(text);
            if (!move) return fail(line, "'" + text + "' is not a move of " + game_name_);
            if (!state->is_legal(*move)) {
                return fail(line,
                            "'" + text + "' is illegal at ply " + std::to_string(state->ply()));
            }
            state->apply(*move);
        }
        state_ = std::move(state);
        return std::nullopt;
    }

    std::optional<int> on(const protocol::Go& go, const std::string& line) {
        if (!game_ || !state_) return fail(line, "no game has started");
        if (state_->is_over()) return fail(line, "the game is already over");
        const InfoSink info = [this](std::string_view text) {
            std::string sanitized(text);  // one line per info: no embedded newlines
            for (char& ch : sanitized) {
                if (ch == '\n' || ch == '\r') ch = ' ';
            }
            send("info " + sanitized);
        };
        const games::Move move = engine_.choose(*state_, go, info);
        if (move != kNoMove) send("move " + state_->format_move(move));
        return std::nullopt;
    }

    std::optional<int> on(const protocol::End& /*end*/, const std::string& /*line*/) {
        return std::nullopt;
    }

    std::optional<int> on(const protocol::Quit& /*quit*/, const std::string& /*line*/) { return 0; }

    void send(const std::string& text) { out_ << text << '\n' << std::flush; }

    [[nodiscard]] int fail(const std::string& line, const std::string& why) const {
        std::cerr << (info_.name.empty() ? "bot" : info_.name) << ": cannot follow '" << line
                  << "': " << why << '\n'
                  << std::flush;
        return kFailExit;
    }

    const BotInfo& info_;
    Engine& engine_;
    std::ostream& out_;
    std::unique_ptr<games::Game> game_;
    std::string game_name_;
    games::Params game_params_;
    std::unique_ptr<games::State> state_;
};

}  // namespace

int run_bot(const BotInfo& info, Engine& engine, std::istream& in, std::ostream& out) {
    Loop loop(info, engine, out);
    std::string line;
    while (std::getline(in, line)) {
        if (const auto code = loop.handle(line)) return *code;
    }
    return 0;  // end of input means quit
}

}  // namespace arena::bots
