#include "arena/tournament/openings.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "arena/games/registry.hpp"

namespace arena::tournament {
namespace {

std::string single_quoted(const std::string& s) {
    return "'" + s + "'";
}

// The concrete board of `params` is the game's default board.
bool default_board(const std::string& game, const games::Params& params) {
    if (const std::string* variant = games::find_param(params, "variant");
        variant != nullptr && *variant != "standard")
        return false;
    try {
        return games::make_game(game, params)->params() == games::make_game(game, {})->params();
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace

OpeningsFile read_openings_file(const std::filesystem::path& path) {
    const std::string name = single_quoted(path.string());
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        throw std::runtime_error("openings file " + name + " not found");
    std::ifstream in(path);
    if (!in || std::filesystem::is_directory(path, ec))
        throw std::runtime_error("openings file " + name + " cannot be read");
    OpeningsFile file;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
        std::istringstream words(line);
        std::vector<std::string> moves;
        for (std::string w; words >> w;)
            moves.push_back(w);
        if (moves.empty()) continue;
        file.lines.push_back(std::move(moves));
        file.line_numbers.push_back(number);
    }
    if (file.lines.empty()) throw std::runtime_error("openings file " + name + " has no openings");
    return file;
}

std::string check_openings(const games::Game& game, const std::string& game_name,
                           OpeningsFile& file) {
    for (std::size_t i = 0; i < file.lines.size(); ++i) {
        const std::string where = "line " + std::to_string(file.line_numbers[i]) + ": ";
        auto state = game.new_initial_state();
        for (std::string& text : file.lines[i]) {
            if (state->is_over())
                return where + "the game is over before move " + single_quoted(text);
            const std::optional<games::Move> move = state->parse_move(text);
            if (!move || !state->is_legal(*move))
                return where + "move " + single_quoted(text) + " is not legal in " + game_name;
            state->apply(*move);
            text = state->format_move(*move);  // one spelling per move
        }
        if (state->is_over()) return where + "the opening ends the game";
    }
    return {};
}

std::string default_suite_name(const std::string& game, const games::Params& params) {
    if (game == "connect4" && default_board(game, params)) return "connect4-7x6-balanced.txt";
    if (game == "reversi" && default_board(game, params)) return "reversi-8ply-balanced.txt";
    if (game == "gomoku") {
        // 15 x 15 under either rule.
        games::Params board = params;
        std::erase_if(board, [](const auto& kv) { return kv.first == "rule"; });
        if (!default_board(game, board)) return {};
        const std::string* rule = games::find_param(params, "rule");
        if (rule == nullptr || *rule == "freestyle") return "gomoku-15-freestyle.txt";
        if (*rule == "exact5") return "gomoku-15-exact5.txt";
    }
    return {};
}

std::filesystem::path suites_dir() {
    if (const char* dir = std::getenv("ARENA_OPENINGS_DIR"); dir != nullptr && *dir != '\0')
        return dir;
    return std::filesystem::path(ARENA_CHECKOUT_DIR) / "configs" / "openings";
}

std::optional<std::filesystem::path> default_suite(const std::string& game,
                                                   const games::Params& params) {
    const std::string name = default_suite_name(game, params);
    if (name.empty()) return std::nullopt;
    const auto path = suites_dir() / name;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
    return path;
}

}  // namespace arena::tournament
