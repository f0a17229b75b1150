#include "arena/games/reversi.hpp"

#include <array>
#include <bit>
#include <string>

namespace arena::games {
namespace {

constexpr char kName[] = "reversi";
constexpr int kCells = kReversiSize * kReversiSize;

constexpr std::uint64_t bit_of(int cell) {
    return std::uint64_t{1} << cell;
}
constexpr int cell_of(int col, int row) {
    return row * kReversiSize + col;
}

// A step in one of the eight directions on the bitboard. Bit i is cell
// (row i / 8, col i % 8): col + 1 is a shift left by 1, row + 1 a shift left
// by 8. The mask drops discs that wrapped around a side edge.
struct Direction {
    int shift;  // > 0: shift left, < 0: shift right
    std::uint64_t mask;
};
constexpr std::uint64_t kNotColA = ~0x0101010101010101ULL;  // clears col 0
constexpr std::uint64_t kNotColH = ~0x8080808080808080ULL;  // clears col 7
constexpr std::array<Direction, 8> kDirections{{
    {1, kNotColA},   // right
    {-1, kNotColH},  // left
    {8, ~0ULL},      // down
    {-8, ~0ULL},     // up
    {9, kNotColA},   // down-right
    {7, kNotColH},   // down-left
    {-7, kNotColA},  // up-right
    {-9, kNotColH},  // up-left
}};

constexpr std::uint64_t step(std::uint64_t x, const Direction& d) {
    return (d.shift > 0 ? x << d.shift : x >> -d.shift) & d.mask;
}

// Every empty cell from which `own` brackets a run of `opp` in some direction.
std::uint64_t placements(std::uint64_t own, std::uint64_t opp) {
    const std::uint64_t empty = ~(own | opp);
    std::uint64_t moves = 0;
    for (const auto& d : kDirections) {
        // A run of opponent discs is at most 6 long on an 8-wide board.
        std::uint64_t run = step(own, d) & opp;
        for (int i = 0; i < 5; ++i)
            run |= step(run, d) & opp;
        moves |= step(run, d) & empty;
    }
    return moves;
}

// The opponent discs a disc placed on `placed` flips.
std::uint64_t flips_of(std::uint64_t own, std::uint64_t opp, std::uint64_t placed) {
    std::uint64_t flips = 0;
    for (const auto& d : kDirections) {
        std::uint64_t line = 0;
        std::uint64_t x = step(placed, d);
        while ((x & opp) != 0) {
            line |= x;
            x = step(x, d);
        }
        if ((x & own) != 0) flips |= line;
    }
    return flips;
}

}  // namespace

std::unique_ptr<State> ReversiGame::new_initial_state() const {
    return std::make_unique<ReversiState>();
}

BoardDescription ReversiGame::board() const {
    BoardDescription b;
    b.width = kReversiSize;
    b.height = kReversiSize;
    b.rows_from_top = true;
    return b;
}

ReversiState::ReversiState()
    : ReversiState(bit_of(cell_of(3, 4)) | bit_of(cell_of(4, 3)),  // black: d5, e4
                   bit_of(cell_of(3, 3)) | bit_of(cell_of(4, 4)),  // white: d4, e5
                   1) {}

ReversiState::ReversiState(std::uint64_t black, std::uint64_t white, int to_move)
    : discs_{black, white}, to_move_(to_move) {
    if ((black & white) != 0) {
        throw GameError(std::string(kName) + ": a cell holds both a black and a white disc");
    }
    if (to_move != 1 && to_move != 2) {
        throw GameError(std::string(kName) + ": player " + std::to_string(to_move) +
                        " does not exist");
    }
    settle();
}

void ReversiState::settle() {
    const std::uint64_t own = discs_[to_move_ - 1];
    const std::uint64_t opp = discs_[2 - to_move_];
    moves_ = placements(own, opp);
    if (moves_ != 0 || placements(opp, own) != 0) {
        outcome_ = Outcome::kOngoing;
        return;
    }
    const int black = disc_count(1);
    const int white = disc_count(2);
    outcome_ = black > white ? Outcome::kWin1 : white > black ? Outcome::kWin2 : Outcome::kDraw;
}

int ReversiState::disc_count(int player) const {
    return std::popcount(discs(player));
}

int ReversiState::piece_at(Cell cell) const {
    const std::uint64_t bit = bit_of(cell_of(cell.col, kReversiSize - 1 - cell.row));
    return (discs_[0] & bit) != 0 ? 1 : (discs_[1] & bit) != 0 ? 2 : kEmptyCell;
}

std::unique_ptr<State> ReversiState::clone() const {
    return std::make_unique<ReversiState>(*this);
}

std::vector<Move> ReversiState::legal_moves() const {
    if (outcome_ != Outcome::kOngoing) return {};
    if (moves_ == 0) return {kPass};
    std::vector<Move> moves;
    moves.reserve(static_cast<std::size_t>(std::popcount(moves_)));
    for (std::uint64_t rest = moves_; rest != 0; rest &= rest - 1) {
        moves.push_back(std::countr_zero(rest));
    }
    return moves;
}

bool ReversiState::is_legal(Move m) const {
    if (outcome_ != Outcome::kOngoing) return false;
    if (m == kPass) return moves_ == 0;
    return m >= 0 && m < kCells && (moves_ & bit_of(m)) != 0;
}

void ReversiState::apply(Move m) {
    if (!is_legal(m)) {
        const std::string text =
            m == kPass || (m >= 0 && m < kCells) ? format_move(m) : std::to_string(m);
        throw GameError(std::string(kName) + ": illegal move " + text);
    }
    if (m != kPass) {
        auto& own = discs_[to_move_ - 1];
        auto& opp = discs_[2 - to_move_];
        const std::uint64_t placed = bit_of(m);
        const std::uint64_t flips = flips_of(own, opp, placed);
        own |= placed | flips;
        opp &= ~flips;
    }
    to_move_ = opponent_of(to_move_);
    ++ply_;
    settle();
}

std::optional<Move> ReversiState::parse_move(std::string_view text) const {
    if (text == "pass" || text == "PASS") return kPass;
    if (text.size() != 2) return std::nullopt;
    char letter = text[0];
    if (letter >= 'A' && letter <= 'H') letter = static_cast<char>(letter - 'A' + 'a');
    if (letter < 'a' || letter > 'h' || text[1] < '1' || text[1] > '8') return std::nullopt;
    return cell_of(letter - 'a', text[1] - '1');
}

std::string ReversiState::format_move(Move m) const {
    if (m == kPass) return "pass";
    if (m < 0 || m >= kCells) {
        throw GameError(std::string(kName) + ": " + std::to_string(m) + " is not a cell");
    }
    return {static_cast<char>('a' + m % kReversiSize), static_cast<char>('1' + m / kReversiSize)};
}

std::string ReversiState::render() const {
    std::string out = "  a b c d e f g h\n";
    for (int row = 0; row < kReversiSize; ++row) {
        out += static_cast<char>('1' + row);
        for (int col = 0; col < kReversiSize; ++col) {
            const std::uint64_t b = bit_of(cell_of(col, row));
            out += ' ';
            out += (discs_[0] & b) != 0 ? 'X' : (discs_[1] & b) != 0 ? 'O' : '.';
        }
        out += '\n';
    }
    out += "ply " + std::to_string(ply_) + ": X (black) " + std::to_string(disc_count(1)) +
           ", O (white) " + std::to_string(disc_count(2)) + "; ";
    out += status_text(outcome_, to_move_);
    if (outcome_ == Outcome::kOngoing && moves_ == 0) out += " (must pass)";
    out += '\n';
    return out;
}

}  // namespace arena::games
