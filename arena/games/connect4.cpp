#include "arena/games/connect4.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <string>
#include <utility>
#include <vector>

namespace arena::games {
namespace {

constexpr char kName[] = "connect4";

void check_range(std::string_view key, int value, int lo, int hi) {
    if (value < lo || value > hi) {
        throw GameError(std::string(kName) + ": " + std::string(key) + "=" + std::to_string(value) +
                        " is out of range (" + std::to_string(lo) + ".." + std::to_string(hi) +
                        ")");
    }
}

std::string cell_text(const Connect4Cell& cell) {
    return std::to_string(cell.col + 1) + ":" + std::to_string(cell.row + 1);
}

// splitmix64 (Steele, Lea, Flood 2014): fixed arithmetic, so a seed means the
// same board everywhere, unlike std::uniform_int_distribution.
class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n): the high 32 bits scaled by n. The bias is below
    // n / 2^32, far under anything a tournament could notice.
    int below(int n) {
        return static_cast<int>(((next() >> 32) * static_cast<std::uint64_t>(n)) >> 32);
    }

  private:
    std::uint64_t state_;
};

char piece_char(int content) {
    switch (content) {
        case 1:
            return 'X';
        case 2:
            return 'O';
        case Connect4State::kBlocked:
            return '#';
        default:
            return '.';
    }
}

}  // namespace

Connect4Config tsinghua_config(std::uint64_t seed) {
    SplitMix64 rng(seed);
    constexpr int kSpan = kTsinghuaMaxSize - kTsinghuaMinSize + 1;
    Connect4Config config;
    config.rows = kTsinghuaMinSize + rng.below(kSpan);
    config.cols = kTsinghuaMinSize + rng.below(kSpan);
    config.connect = 4;
    const int col = rng.below(config.cols);
    const int row = rng.below(config.rows);
    config.blocked = {Connect4Cell{col, row}};
    return config;
}

Connect4Game::Connect4Game(Connect4Config config) : config_(std::move(config)) {
    check_range("rows", config_.rows, kConnect4MinSize, kConnect4MaxSize);
    check_range("cols", config_.cols, kConnect4MinSize, kConnect4MaxSize);
    check_range("connect", config_.connect, kConnect4MinConnect,
                std::max(config_.rows, config_.cols));
    auto& blocked = config_.blocked;
    for (const auto& cell : blocked) {
        if (cell.col < 0 || cell.col >= config_.cols || cell.row < 0 || cell.row >= config_.rows) {
            throw GameError(std::string(kName) + ": blocked cell " + cell_text(cell) +
                            " is outside the board (cols 1.." + std::to_string(config_.cols) +
                            ", rows 1.." + std::to_string(config_.rows) + ")");
        }
    }
    std::sort(blocked.begin(), blocked.end(), [](const Connect4Cell& a, const Connect4Cell& b) {
        return std::pair(a.col, a.row) < std::pair(b.col, b.row);
    });
    if (const auto dup = std::adjacent_find(blocked.begin(), blocked.end()); dup != blocked.end()) {
        throw GameError(std::string(kName) + ": blocked cell " + cell_text(*dup) +
                        " is listed twice");
    }
    // A board on which no line of `connect` open cells fits (every cell
    // blocked, at the extreme) would make every game a draw, without a move.
    std::vector<bool> is_blocked(static_cast<std::size_t>(config_.rows * config_.cols), false);
    for (const auto& cell : blocked)
        is_blocked[static_cast<std::size_t>(cell.row * config_.cols + cell.col)] = true;
    const auto open = [&](int col, int row) {
        return col >= 0 && col < config_.cols && row >= 0 && row < config_.rows &&
               !is_blocked[static_cast<std::size_t>(row * config_.cols + col)];
    };
    static constexpr std::array<std::pair<int, int>, 4> kLines{{{1, 0}, {0, 1}, {1, 1}, {1, -1}}};
    bool line_fits = false;
    for (int col = 0; col < config_.cols && !line_fits; ++col) {
        for (int row = 0; row < config_.rows && !line_fits; ++row) {
            for (const auto& [dc, dr] : kLines) {
                int k = 0;
                while (k < config_.connect && open(col + k * dc, row + k * dr))
                    ++k;
                if (k == config_.connect) {
                    line_fits = true;
                    break;
                }
            }
        }
    }
    if (!line_fits) {
        throw GameError(std::string(kName) + ": the blocked cells leave no line of " +
                        std::to_string(config_.connect) +
                        " open cells on the board, so every game would be a draw" +
                        (blocked.size() == static_cast<std::size_t>(config_.rows * config_.cols)
                             ? " without a move (every cell is blocked)"
                             : ""));
    }
}

Params Connect4Game::params() const {
    Params params{{"rows", std::to_string(config_.rows)},
                  {"cols", std::to_string(config_.cols)},
                  {"connect", std::to_string(config_.connect)}};
    if (!config_.blocked.empty()) {
        std::string text;
        for (const auto& cell : config_.blocked) {
            if (!text.empty()) text += ',';
            text += cell_text(cell);
        }
        params.emplace_back("blocked", std::move(text));
    }
    return params;
}

std::unique_ptr<State> Connect4Game::new_initial_state() const {
    // The constructor is private; make_unique cannot reach it.
    return std::unique_ptr<State>(new Connect4State(config_));
}

BoardDescription Connect4Game::board() const {
    BoardDescription b;
    b.width = config_.cols;
    b.height = config_.rows;
    b.gravity = true;
    b.blocked = config_.blocked;
    b.viewer = {{"rows", config_.rows},
                {"cols", config_.cols},
                {"connect", config_.connect},
                {"blocked", config_.blocked}};
    return b;
}

Connect4State::Connect4State(const Connect4Config& config)
    : rows_(config.rows), cols_(config.cols), connect_(config.connect) {
    for (const auto& cell : config.blocked)
        cells_[index(cell.col, cell.row)] = kBlocked;
    open_cells_ = rows_ * cols_ - static_cast<int>(config.blocked.size());
    for (int col = 0; col < cols_; ++col)
        settle_top(col);
    if (open_cells_ == 0) outcome_ = Outcome::kDraw;
}

int Connect4State::piece_count(int player) const {
    int count = 0;
    for (int row = 0; row < rows_; ++row)
        for (int col = 0; col < cols_; ++col)
            count += at(col, row) == player ? 1 : 0;
    return count;
}

void Connect4State::settle_top(int col) {
    int row = top_[col];
    while (row < rows_ && cells_[index(col, row)] != kEmpty)
        ++row;
    top_[col] = static_cast<std::uint8_t>(row);
}

bool Connect4State::wins_through(int col, int row) const {
    const auto who = cells_[index(col, row)];
    static constexpr std::array<std::pair<int, int>, 4> kDirections{
        {{1, 0}, {0, 1}, {1, 1}, {1, -1}}};
    for (const auto& [dc, dr] : kDirections) {
        int count = 1;
        for (int c = col + dc, r = row + dr; inside(c, r) && cells_[index(c, r)] == who;
             c += dc, r += dr) {
            ++count;
        }
        for (int c = col - dc, r = row - dr; inside(c, r) && cells_[index(c, r)] == who;
             c -= dc, r -= dr) {
            ++count;
        }
        if (count >= connect_) return true;
    }
    return false;
}

std::unique_ptr<State> Connect4State::clone() const {
    return std::make_unique<Connect4State>(*this);
}

std::vector<Move> Connect4State::legal_moves() const {
    std::vector<Move> moves;
    if (outcome_ != Outcome::kOngoing) return moves;
    moves.reserve(static_cast<std::size_t>(cols_));
    for (int col = 0; col < cols_; ++col) {
        if (top_[col] < rows_) moves.push_back(col);
    }
    return moves;
}

bool Connect4State::is_legal(Move m) const {
    return outcome_ == Outcome::kOngoing && m >= 0 && m < cols_ && top_[m] < rows_;
}

void Connect4State::apply(Move m) {
    if (!is_legal(m)) {
        const std::string text = m >= 0 && m < cols_ ? format_move(m) : std::to_string(m);
        throw GameError(std::string(kName) + ": illegal move " + text);
    }
    const int row = top_[m];
    cells_[index(m, row)] = static_cast<std::uint8_t>(to_move_);
    settle_top(m);
    --open_cells_;
    ++ply_;
    if (wins_through(m, row)) {
        outcome_ = to_move_ == 1 ? Outcome::kWin1 : Outcome::kWin2;
    } else if (open_cells_ == 0) {
        outcome_ = Outcome::kDraw;
    }
    to_move_ = opponent_of(to_move_);
}

std::optional<Move> Connect4State::parse_move(std::string_view text) const {
    if (text.empty() || text.size() > 2 || text.front() == '0') return std::nullopt;
    int number = 0;
    const auto* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, number);
    if (ec != std::errc() || ptr != end || number < 1 || number > cols_) return std::nullopt;
    return number - 1;
}

std::string Connect4State::format_move(Move m) const {
    if (m < 0 || m >= cols_) {
        throw GameError(std::string(kName) + ": " + std::to_string(m) + " is not a column");
    }
    return std::to_string(m + 1);
}

std::string Connect4State::render() const {
    const int width = cols_ >= 10 ? 3 : 2;
    auto pad = [width](std::string s) {
        return std::string(static_cast<std::size_t>(width) - s.size(), ' ') + s;
    };
    std::string out;
    for (int row = rows_ - 1; row >= 0; --row) {
        out += pad(std::to_string(row + 1));
        for (int col = 0; col < cols_; ++col)
            out += pad(std::string(1, piece_char(at(col, row))));
        out += '\n';
    }
    out += pad("");
    for (int col = 0; col < cols_; ++col)
        out += pad(std::to_string(col + 1));
    out += '\n';
    out += "ply " + std::to_string(ply_) + ": ";
    out += status_text(outcome_, to_move_);
    out += '\n';
    return out;
}

}  // namespace arena::games
