// reversi-pro-tune: fits the weights of reversi-pro's evaluation on
// self-play, and plays fixed-depth matches between two sets of weights.
//
//   reversi-pro-tune fit [--weights FILE] [--games N] [--depth D] [--solve E]
//                        [--seed S] [--out FILE] [--cpp FILE]
//   reversi-pro-tune match --weights FILE --against FILE [--games N] [--depth D]
//
// fit: plays N games against itself with the given weights (default: the
// hand-set ones): 8 to 12 random plies, then a search of depth D, and
// perfect play from E empties. Every position after the random plies is a
// sample whose target is the final disc difference from the mover's view.
// For each number of empties e, the weights are the ridge least-squares fit
// on the samples with e - 2 ... e + 2 empties. Writes the weights as text
// (--out) and as pro_weights.cpp (--cpp).
//
// match: N games (colour-swapped pairs from random 10-ply openings) at
// depth D, with perfect play from 14 empties, between two weight files;
// prints wins, draws and losses of the first.

#include <array>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena/games/reversi.hpp"
#include "bots/reversi/pro_eval.hpp"
#include "bots/reversi/pro_search.hpp"

namespace {

using namespace arena::bots::reversi;
using namespace arena::bots::reversi::pro;

struct Rng {
    std::uint64_t x;
    std::uint64_t next() {
        x += 0x9e3779b97f4a7c15ULL;
        std::uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
};

Weights load(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    Weights w{};
    for (auto& phase : w)
        for (float& x : phase)
            if (!(in >> x)) throw std::runtime_error(path + ": too few weights");
    return w;
}

void save(const Weights& w, std::ostream& out) {
    out << std::setprecision(6);
    for (const auto& phase : w) {
        for (int k = 0; k < kFeatureCount; ++k)
            out << (k > 0 ? " " : "") << phase[static_cast<std::size_t>(k)];
        out << "\n";
    }
}

void save_cpp(const Weights& w, std::ostream& out) {
    out << "// The weights of reversi-pro's evaluation, written by reversi-pro-tune\n"
           "// (reversi_pro_tune.cpp): one row per number of empty cells (0..60), one column\n"
           "// per feature of pro_eval.hpp, in hundredths of a disc.\n"
           "#include \"bots/reversi/pro_eval.hpp\"\n\n"
           "namespace arena::bots::reversi::pro {\n\n"
           "const Weights& tuned_weights() {\n"
           "    static const Weights w{{\n";
    out << std::fixed << std::setprecision(2);
    for (const auto& phase : w) {
        out << "        {";
        for (int k = 0; k < kFeatureCount; ++k)
            out << (k > 0 ? ", " : "") << phase[static_cast<std::size_t>(k)] << "f";
        out << "},\n";
    }
    out << "    }};\n    return w;\n}\n\n}  // namespace arena::bots::reversi::pro\n";
}

// Plays random plies from the start; false when the game ended.
bool random_opening(arena::games::ReversiState& state, Rng& rng, int plies) {
    for (int i = 0; i < plies && !state.is_over(); ++i) {
        const auto moves = state.legal_moves();
        state.apply(moves[rng.next() % moves.size()]);
    }
    return !state.is_over();
}

int choose(Searcher& searcher, const Position& pos, int depth, int solve) {
    if (pos.empties() <= solve) return searcher.solve_root(pos).move;
    return searcher.search(pos, arena::bots::SearchClock::unlimited(), depth, 0).move;
}

// Black's final disc difference.
int play_out(arena::games::ReversiState& state, Searcher& black, Searcher& white, int depth,
             int solve, const std::function<void(const arena::games::ReversiState&)>& visit) {
    while (!state.is_over()) {
        const Position pos = position_of(state);
        if (pos.moves() == 0) {
            state.apply(arena::games::kPass);
            continue;
        }
        if (visit) visit(state);
        Searcher& s = state.current_player() == 1 ? black : white;
        state.apply(choose(s, pos, depth, solve));
    }
    return state.disc_count(1) - state.disc_count(2);
}

// Solves (A + ridge) x = b by Gaussian elimination with partial pivoting.
std::array<double, kFeatureCount> fit(
    std::array<std::array<double, kFeatureCount>, kFeatureCount> a,
    std::array<double, kFeatureCount> b, double ridge) {
    constexpr int n = kFeatureCount;
    for (int i = 1; i < n; ++i)
        a[i][i] += ridge;
    a[0][0] += 1e-6;
    for (int c = 0; c < n; ++c) {
        int p = c;
        for (int r = c + 1; r < n; ++r)
            if (std::abs(a[r][c]) > std::abs(a[p][c])) p = r;
        std::swap(a[c], a[p]);
        std::swap(b[c], b[p]);
        for (int r = c + 1; r < n; ++r) {
            const double f = a[r][c] / a[c][c];
            for (int k = c; k < n; ++k)
                a[r][k] -= f * a[c][k];
            b[r] -= f * b[c];
        }
    }
    std::array<double, kFeatureCount> x{};
    for (int r = n - 1; r >= 0; --r) {
        double s = b[r];
        for (int k = r + 1; k < n; ++k)
            s -= a[r][k] * x[k];
        x[r] = s / a[r][r];
    }
    return x;
}

int run_fit(const Weights& start, int games, int depth, int solve, std::uint64_t seed,
            const std::string& out, const std::string& cpp) {
    struct Sample {
        FeatureVector f;
        int empties;
        int player;
    };
    using Matrix = std::array<std::array<double, kFeatureCount>, kFeatureCount>;
    std::array<Matrix, 61> a{};
    std::array<std::array<double, kFeatureCount>, 61> b{};
    std::array<int, 61> count{};
    Searcher searcher(start, 18);
    Rng rng{seed};
    for (int g = 0; g < games; ++g) {
        arena::games::ReversiState state;
        if (!random_opening(state, rng, 8 + static_cast<int>(rng.next() % 5))) continue;
        searcher.clear();
        std::vector<Sample> samples;
        const int diff = play_out(
            state, searcher, searcher, depth, solve, [&](const arena::games::ReversiState& s) {
                const Position pos = position_of(s);
                samples.push_back({features(pos, pos.moves(), legal_moves(pos.opp, pos.own)),
                                   pos.empties(), s.current_player()});
            });
        for (const Sample& s : samples) {
            const double y = 100.0 * (s.player == 1 ? diff : -diff);
            const auto e = static_cast<std::size_t>(s.empties);
            ++count[e];
            for (int i = 0; i < kFeatureCount; ++i) {
                b[e][i] += s.f[i] * y;
                for (int k = 0; k < kFeatureCount; ++k)
                    a[e][i][k] += static_cast<double>(s.f[i]) * s.f[k];
            }
        }
        if ((g + 1) % 100 == 0) std::cerr << "game " << g + 1 << "\n";
    }
    Weights w = start;
    int fitted_max = -1;
    for (int e = 1; e <= 60; ++e) {
        Matrix sa{};
        std::array<double, kFeatureCount> sb{};
        int n = 0;
        for (int d = std::max(1, e - 2); d <= std::min(60, e + 2); ++d) {
            n += count[static_cast<std::size_t>(d)];
            for (int i = 0; i < kFeatureCount; ++i) {
                sb[i] += b[static_cast<std::size_t>(d)][i];
                for (int k = 0; k < kFeatureCount; ++k)
                    sa[i][k] += a[static_cast<std::size_t>(d)][i][k];
            }
        }
        if (n < 300) {
            if (fitted_max > 0)
                w[static_cast<std::size_t>(e)] = w[static_cast<std::size_t>(fitted_max)];
            continue;
        }
        const auto x = fit(sa, sb, 0.02 * n);
        for (int k = 0; k < kFeatureCount; ++k)
            w[static_cast<std::size_t>(e)][static_cast<std::size_t>(k)] = static_cast<float>(x[k]);
        fitted_max = e;
    }
    w[0] = w[1];
    std::size_t total = 0;
    for (const int c : count)
        total += static_cast<std::size_t>(c);
    std::cerr << total << " samples\n";
    if (!out.empty()) {
        std::ofstream f(out);
        save(w, f);
    }
    if (!cpp.empty()) {
        std::ofstream f(cpp);
        save_cpp(w, f);
    }
    save(w, std::cout);
    return 0;
}

int run_match(const Weights& first, const Weights& second, int games, int depth,
              std::uint64_t seed) {
    Searcher a(first, 18), b(second, 18);
    Rng rng{seed};
    int wins = 0, draws = 0, losses = 0;
    for (int g = 0; g + 1 < games; g += 2) {
        arena::games::ReversiState opening;
        if (!random_opening(opening, rng, 10)) continue;
        for (int swap = 0; swap < 2; ++swap) {
            arena::games::ReversiState state = opening;
            a.clear();
            b.clear();
            const int diff = swap == 0 ? play_out(state, a, b, depth, 14, {})
                                       : -play_out(state, b, a, depth, 14, {});
            (diff > 0 ? wins : diff < 0 ? losses : draws) += 1;
        }
    }
    std::cout << "wins " << wins << " draws " << draws << " losses " << losses << " score "
              << (wins + 0.5 * draws) / std::max(1, wins + draws + losses) << "\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    std::string mode, weights, against, out, cpp;
    int games = 1000, depth = 4, solve = 14;
    std::uint64_t seed = 1;
    po::options_description options("options");
    // clang-format off
    options.add_options()
        ("help,h", "show this help")
        ("mode", po::value<std::string>(&mode), "fit or match")
        ("weights", po::value<std::string>(&weights), "weights file (default: hand-set)")
        ("against", po::value<std::string>(&against), "match: the other weights file")
        ("games", po::value<int>(&games)->default_value(1000), "games to play")
        ("depth", po::value<int>(&depth)->default_value(4), "search depth")
        ("solve", po::value<int>(&solve)->default_value(14), "fit: perfect play from this many empties")
        ("seed", po::value<std::uint64_t>(&seed)->default_value(1), "seed of the random plies")
        ("out", po::value<std::string>(&out), "fit: write the weights as text")
        ("cpp", po::value<std::string>(&cpp), "fit: write the weights as pro_weights.cpp");
    // clang-format on
    po::positional_options_description positional;
    positional.add("mode", 1);
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(argc, argv).options(options).positional(positional).run(),
                  vm);
        po::notify(vm);
        if (vm.count("help") || mode.empty()) {
            std::cout << "usage: reversi-pro-tune fit|match [options]\n" << options;
            return mode.empty() && !vm.count("help") ? 2 : 0;
        }
        if (games < 1 || depth < 1 || solve < 0)
            throw std::invalid_argument(
                "--games and --depth must be positive, --solve not negative");
        const Weights start = weights.empty() ? hand_weights() : load(weights);
        if (mode == "fit") return run_fit(start, games, depth, solve, seed, out, cpp);
        if (mode == "match") {
            const Weights other = against.empty() ? hand_weights() : load(against);
            return run_match(start, other, games, depth, seed);
        }
        throw std::invalid_argument("unknown mode '" + mode + "' (fit or match)");
    } catch (const std::exception& e) {
        std::cerr << "reversi-pro-tune: " << e.what() << "\n";
        return 2;
    }
}
