#include "arena/games/gomoku.hpp"

#include <charconv>
#include <string>

namespace arena::games {
namespace {

constexpr char kName[] = "gomoku";

char stone_char(int content) {
    return content == 1 ? 'X' : content == 2 ? 'O' : '.';
}

}  // namespace

std::string_view to_string(GomokuRule rule) {
    return rule == GomokuRule::kExact5 ? "exact5" : "freestyle";
}

GomokuGame::GomokuGame(GomokuConfig config) : config_(config) {
    if (config_.size < kGomokuMinSize || config_.size > kGomokuMaxSize) {
        throw GameError(std::string(kName) + ": size=" + std::to_string(config_.size) +
                        " is out of range (" + std::to_string(kGomokuMinSize) + ".." +
                        std::to_string(kGomokuMaxSize) + ")");
    }
}

Params GomokuGame::params() const {
    return {{"size", std::to_string(config_.size)}, {"rule", std::string(to_string(config_.rule))}};
}

std::unique_ptr<State> GomokuGame::new_initial_state() const {
    // The constructor is private; make_unique cannot reach it.
    return std::unique_ptr<State>(new GomokuState(config_));
}

BoardDescription GomokuGame::board() const {
    BoardDescription b;
    b.width = config_.size;
    b.height = config_.size;
    b.viewer = {{"size", config_.size}, {"rule", std::string(to_string(config_.rule))}};
    return b;
}

GomokuState::GomokuState(const GomokuConfig& config) : size_(config.size), rule_(config.rule) {}

int GomokuState::piece_count(int player) const {
    int count = 0;
    for (int cell = 0; cell < size_ * size_; ++cell)
        count += cells_[cell] == player ? 1 : 0;
    return count;
}

bool GomokuState::wins_through(int col, int row) const {
    const int who = at(col, row);
    static constexpr std::array<std::pair<int, int>, 4> kDirections{
        {{1, 0}, {0, 1}, {1, 1}, {1, -1}}};
    for (const auto& [dc, dr] : kDirections) {
        int count = 1;
        for (int c = col + dc, r = row + dr; inside(c, r) && at(c, r) == who; c += dc, r += dr) {
            ++count;
        }
        for (int c = col - dc, r = row - dr; inside(c, r) && at(c, r) == who; c -= dc, r -= dr) {
            ++count;
        }
        // Under exact5 a move can make an overline in one direction and
        // exactly five in another; the five still wins.
        if (rule_ == GomokuRule::kExact5 ? count == kGomokuWinLength : count >= kGomokuWinLength) {
            return true;
        }
    }
    return false;
}

std::unique_ptr<State> GomokuState::clone() const {
    return std::make_unique<GomokuState>(*this);
}

std::vector<Move> GomokuState::legal_moves() const {
    std::vector<Move> moves;
    if (outcome_ != Outcome::kOngoing) return moves;
    const int cells = size_ * size_;
    moves.reserve(static_cast<std::size_t>(cells - ply_));
    for (int i = 0; i < cells; ++i) {
        if (cells_[i] == kEmpty) moves.push_back(i);
    }
    return moves;
}

bool GomokuState::is_legal(Move m) const {
    return outcome_ == Outcome::kOngoing && m >= 0 && m < size_ * size_ && cells_[m] == kEmpty;
}

void GomokuState::apply(Move m) {
    if (!is_legal(m)) {
        const std::string text = m >= 0 && m < size_ * size_ ? format_move(m) : std::to_string(m);
        throw GameError(std::string(kName) + ": illegal move " + text);
    }
    cells_[m] = static_cast<std::uint8_t>(to_move_);
    ++ply_;
    if (wins_through(m % size_, m / size_)) {
        outcome_ = to_move_ == 1 ? Outcome::kWin1 : Outcome::kWin2;
    } else if (ply_ == size_ * size_) {
        outcome_ = Outcome::kDraw;
    }
    to_move_ = opponent_of(to_move_);
}

std::optional<Move> GomokuState::parse_move(std::string_view text) const {
    if (text.size() < 2 || text.size() > 3) return std::nullopt;
    char letter = text[0];
    if (letter >= 'A' && letter <= 'Z') letter = static_cast<char>(letter - 'A' + 'a');
    if (letter < 'a' || letter > 'z') return std::nullopt;
    const int col = letter - 'a';
    const std::string_view digits = text.substr(1);
    if (digits.front() == '0') return std::nullopt;
    int number = 0;
    const auto* end = digits.data() + digits.size();
    const auto [ptr, ec] = std::from_chars(digits.data(), end, number);
    if (ec != std::errc() || ptr != end) return std::nullopt;
    if (col >= size_ || number < 1 || number > size_) return std::nullopt;
    return (number - 1) * size_ + col;
}

std::string GomokuState::format_move(Move m) const {
    if (m < 0 || m >= size_ * size_) {
        throw GameError(std::string(kName) + ": " + std::to_string(m) + " is not a cell");
    }
    return std::string(1, static_cast<char>('a' + m % size_)) + std::to_string(m / size_ + 1);
}

std::string GomokuState::render() const {
    std::string out;
    for (int row = size_ - 1; row >= 0; --row) {
        const std::string number = std::to_string(row + 1);
        out += std::string(3 - number.size(), ' ') + number;
        for (int col = 0; col < size_; ++col) {
            out += ' ';
            out += stone_char(at(col, row));
        }
        out += '\n';
    }
    out += "   ";
    for (int col = 0; col < size_; ++col) {
        out += ' ';
        out += static_cast<char>('a' + col);
    }
    out += '\n';
    out += "ply " + std::to_string(ply_) + ": ";
    out += status_text(outcome_, to_move_);
    out += '\n';
    return out;
}

}  // namespace arena::games
