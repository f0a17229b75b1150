// gomoku-pro-tune: fits the weights of gomoku-pro's evaluation
// (pro_eval.hpp) on the outcomes of games the arena played and exported.
//
//   gomoku-pro-tune GAMES.pgn... [--l2 X] [--holdout N] [--cpp FILE]
//                   [--search-depth D [--lambda L] [--threads T] [--scores FILE]]
//
// The games are `arena export DB --format pgn` files. Games of another size
// or rule than the first, unfinished games, draws and games lost on a fault
// (timeout, crash, ...) are skipped. Every position after the opening where
// neither side has a five to make and the side to move has no open four to
// make is a sample; its target is whether the side to move went on to win.
//
// The fit is a logistic regression (Newton's method, with an L2 penalty of
// X on every weight but the constant) on all games but every Nth, which are
// held out: the tool prints the held-out log-loss of the fit and of the
// hand-set evaluation (classic_evaluate), scaled by its own best factor.
// The weights are written in the hand-set evaluation's units: the fitted
// logit divided by that factor. --cpp writes them as pro_weights.cpp.
//
// With --search-depth D, each position is also searched to depth D by
// gomoku-pro with the shipped weights, and the target is a blend: L times
// the outcome plus 1 - L times the search's score as a probability (through
// the factor that fits the shipped evaluation to the outcomes; a proven win
// or loss is 1 or 0). The evaluation then learns what a search sees a few
// moves ahead. The searches are the slow part: --scores keeps them in a file
// for the next fit of the same games and depth.

#include <algorithm>
#include <atomic>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "arena/games/registry.hpp"
#include "bots/gomoku/engine.hpp"
#include "bots/gomoku/pro.hpp"
#include "bots/gomoku/pro_eval.hpp"

namespace {

using namespace arena::bots::gomoku;
namespace po = boost::program_options;

struct PgnGame {
    std::string source;  // file:line of its first tag
    std::map<std::string, std::string> tags;
    std::vector<std::string> moves;
};

// Reads the games of an arena PGN export: tag pairs, then the moves with
// move numbers, {comments} and the result.
std::vector<PgnGame> read_pgn(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::vector<PgnGame> games;
    std::string line;
    bool in_moves = false;
    bool in_comment = false;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (!in_comment && !line.empty() && line.front() == '[') {
            if (games.empty() || in_moves) {
                games.push_back({path + ":" + std::to_string(number), {}, {}});
                in_moves = false;
            }
            const auto space = line.find(' ');
            const auto open = line.find('"');
            const auto close = line.rfind('"');
            if (space == std::string::npos || open == std::string::npos || close <= open)
                throw std::runtime_error(path + ":" + std::to_string(number) +
                                         ": not a tag pair: " + line);
            games.back().tags[line.substr(1, space - 1)] = line.substr(open + 1, close - open - 1);
            continue;
        }
        if (games.empty()) {
            if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
            throw std::runtime_error(path + ":" + std::to_string(number) +
                                     ": moves before any tag pair");
        }
        in_moves = true;
        std::istringstream words(line);
        std::string w;
        while (words >> w) {
            if (in_comment) {
                if (w.find('}') != std::string::npos) in_comment = false;
                continue;
            }
            if (w.front() == '{') {
                in_comment = w.find('}') == std::string::npos;
                continue;
            }
            if (w == "1-0" || w == "0-1" || w == "1/2-1/2" || w == "*") continue;
            const auto dot = w.find_last_of('.');
            if (dot != std::string::npos) w = w.substr(dot + 1);  // "12." "12..." "12.h8"
            if (!w.empty()) games.back().moves.push_back(w);
        }
    }
    return games;
}

// The game of a PGN's Game tag ("gomoku size=15 rule=freestyle"), made by
// the arena's registry, which checks its parameters.
std::unique_ptr<arena::games::Game> game_of(const PgnGame& g) {
    const auto it = g.tags.find("Game");
    if (it == g.tags.end()) throw std::runtime_error(g.source + ": no Game tag");
    std::istringstream words(it->second);
    std::string name, word;
    words >> name;
    if (name != "gomoku") throw std::runtime_error(g.source + ": not a gomoku game: " + it->second);
    arena::games::Params params;
    while (words >> word) {
        const auto eq = word.find('=');
        if (eq == std::string::npos)
            throw std::runtime_error(g.source + ": not key=value in the Game tag: " + word);
        params.emplace_back(word.substr(0, eq), word.substr(eq + 1));
    }
    try {
        return arena::games::make_game(name, params);
    } catch (const arena::games::GameError& e) {
        throw std::runtime_error(g.source + ": " + e.what());
    }
}

struct Sample {
    std::vector<int> x;
    int classic = 0;
    int current = 0;  // the shipped weights' evaluation
    bool won = false;
    bool held_out = false;
    int score = 0;        // with --search-depth: the search's score
    double target = 0.0;  // what the fit aims at: won, or a blend with the score
};

double sigmoid(double z) {
    return 1.0 / (1.0 + std::exp(-z));
}

double log_loss(const std::vector<Sample>& samples, bool held_out,
                const std::function<double(const Sample&)>& logit) {
    double sum = 0;
    int n = 0;
    for (const Sample& s : samples) {
        if (s.held_out != held_out) continue;
        const double p = std::clamp(sigmoid(logit(s)), 1e-9, 1 - 1e-9);
        sum -= std::log(s.won ? p : 1 - p);
        ++n;
    }
    return n ? sum / n : 0;
}

// Solves a x = b for a symmetric positive definite a (Cholesky).
std::vector<double> solve(std::vector<std::vector<double>> a, std::vector<double> b) {
    const std::size_t n = b.size();
    for (std::size_t j = 0; j < n; ++j) {
        double d = a[j][j];
        for (std::size_t k = 0; k < j; ++k)
            d -= a[j][k] * a[j][k];
        if (d <= 0) throw std::runtime_error("the fit is singular: try a larger --l2");
        a[j][j] = std::sqrt(d);
        for (std::size_t i = j + 1; i < n; ++i) {
            double v = a[i][j];
            for (std::size_t k = 0; k < j; ++k)
                v -= a[i][k] * a[j][k];
            a[i][j] = v / a[j][j];
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t k = 0; k < i; ++k)
            b[i] -= a[i][k] * b[k];
        b[i] /= a[i][i];
    }
    for (std::size_t i = n; i-- > 0;) {
        for (std::size_t k = i + 1; k < n; ++k)
            b[i] -= a[k][i] * b[k];
        b[i] /= a[i][i];
    }
    return b;
}

// Logistic regression by Newton's method; the last weight (the constant) is
// not penalised.
std::vector<double> fit(const std::vector<Sample>& samples, double l2) {
    const std::size_t n = kEvalFeatures;
    std::vector<double> w(n, 0.0);
    for (int iteration = 0; iteration < 20; ++iteration) {
        std::vector<std::vector<double>> h(n, std::vector<double>(n, 0.0));
        std::vector<double> g(n, 0.0);
        std::vector<std::size_t> nonzero;
        for (const Sample& s : samples) {
            if (s.held_out) continue;
            double z = 0;
            nonzero.clear();
            for (std::size_t i = 0; i < n; ++i) {
                if (s.x[i] == 0) continue;
                nonzero.push_back(i);
                z += w[i] * s.x[i];
            }
            const double p = sigmoid(z);
            const double v = p * (1 - p);
            for (const std::size_t i : nonzero) {
                g[i] += (p - s.target) * s.x[i];
                for (const std::size_t j : nonzero)
                    h[i][j] += v * s.x[i] * s.x[j];
            }
        }
        for (std::size_t i = 0; i + 1 < n; ++i) {
            g[i] += l2 * w[i];
            h[i][i] += l2;
        }
        h[n - 1][n - 1] += 1e-9;
        const std::vector<double> step = solve(h, g);
        double largest = 0;
        for (std::size_t i = 0; i < n; ++i) {
            w[i] -= step[i];
            largest = std::max(largest, std::fabs(step[i]));
        }
        if (largest < 1e-7) break;
    }
    return w;
}

void write_cpp(const std::string& path, const EvalWeights& w, const std::string& summary) {
    std::ofstream out(path);
    if (!out) throw std::runtime_error("cannot write " + path);
    const auto row = [&](const auto& values) {
        std::string text;
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (i > 0) text += i % 11 == 0 ? ",\n         " : ", ";
            text += std::to_string(values[i]);
        }
        return text;
    };
    out << "// The weights of gomoku-pro's evaluation (pro_eval.hpp), written by\n"
           "// gomoku-pro-tune (pro_tune.cpp) from "
        << summary
        << ".\n"
           "// clang-format off\n"
           "#include \"bots/gomoku/pro_eval.hpp\"\n\n"
           "namespace arena::bots::gomoku {\n\n"
           "const EvalWeights& tuned_eval_weights() {\n"
           "    static const EvalWeights w{\n"
           "        {"
        << row(w.mine) << "},\n        {" << row(w.theirs) << "},\n        {" << row(w.terms)
        << "},\n        " << w.bias
        << "};\n"
           "    return w;\n"
           "}\n\n"
           "}  // namespace arena::bots::gomoku\n";
    if (!out) throw std::runtime_error("cannot write " + path);
}

// The fixed-depth gomoku-pro that scores positions for --search-depth: its
// root threat searches kept small, so that the depth decides.
ProOptions search_options(int depth) {
    ProOptions o;
    o.max_depth = depth;
    o.root_vcf_nodes = 20'000;
    o.root_vct_nodes = 20'000;
    o.defence_vcf_nodes = 1'000;
    o.defence_vct_nodes = 1'000;
    o.tt_bits = 18;
    o.solver_bits = 16;
    return o;
}

// The score of the last iteration `engine` reports for `state`, for the side
// to move; a decided move (a five, a block, a threat win) scores as its info
// line says.
int search_score(ProEngine& engine, const arena::games::State& state) {
    load_state(engine.board(), state);
    engine.clear();
    int score = 0;
    (void)engine.think_untimed([&](std::string_view line) {
        const auto at = line.find(" score ");
        if (line.rfind("depth ", 0) == 0 && at != std::string_view::npos)
            score = std::stoi(std::string(line.substr(at + 7, line.find(' ', at + 7) - at - 7)));
    });
    return score;
}

// Scores each position (Sample::score) on `threads` threads, each with an
// engine of its own.
void score_positions(const std::vector<std::unique_ptr<arena::games::State>>& positions,
                     std::vector<Sample>& samples, int depth, int threads) {
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&] {
            auto engine = std::make_unique<ProEngine>(search_options(depth));
            for (std::size_t i = next++; i < positions.size(); i = next++)
                samples[i].score = search_score(*engine, *positions[i]);
        });
    }
    for (auto& w : workers)
        w.join();
}

int run(int argc, char** argv) {
    std::vector<std::string> files;
    double l2 = 1.0;
    int holdout = 4;
    int search_depth = 0;
    int threads = 1;
    std::string scores_file;
    double lambda = 0.5;
    std::string cpp;
    po::options_description flags("options");
    // clang-format off
    flags.add_options()
        ("help,h", "show this help")
        ("l2", po::value<double>(&l2), "L2 penalty on each weight (default 1)")
        ("holdout", po::value<int>(&holdout), "hold out every Nth game to measure the fit (default 4; 0: none)")
        ("search-depth", po::value<int>(&search_depth), "also search each position to this depth with gomoku-pro (its shipped weights) and fit on a blend of the outcome and the search's score (default 0: the outcome alone)")
        ("threads", po::value<int>(&threads), "threads that search the positions (default 1)")
        ("scores", po::value<std::string>(&scores_file), "with --search-depth, keep the search's scores in this file, and read them from it when it exists")
        ("lambda", po::value<double>(&lambda), "with --search-depth, the outcome's share of the blend (default 0.5)")
        ("cpp", po::value<std::string>(&cpp), "write the weights as this pro_weights.cpp");
    // clang-format on
    po::options_description hidden;
    hidden.add_options()("games", po::value<std::vector<std::string>>(&files));
    po::options_description all;
    all.add(flags).add(hidden);
    po::positional_options_description positional;
    positional.add("games", -1);
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    po::notify(vm);
    if (vm.count("help") || files.empty()) {
        std::cout << "usage: gomoku-pro-tune GAMES.pgn... [options]\n"
                     "Fits gomoku-pro's evaluation on the outcomes of games exported by\n"
                     "`arena export DB --format pgn` (see bots/README.md).\n\n"
                  << flags;
        return files.empty() && !vm.count("help") ? 2 : 0;
    }
    if (l2 < 0 || holdout < 0) throw std::invalid_argument("--l2 and --holdout must be >= 0");
    if (search_depth < 0 || search_depth > 12)
        throw std::invalid_argument("--search-depth must be 0..12");
    if (lambda < 0 || lambda > 1) throw std::invalid_argument("--lambda must be 0..1");
    if (threads < 1 || threads > 64) throw std::invalid_argument("--threads must be 1..64");

    std::vector<Sample> samples;
    arena::games::Params setup;  // the first game's
    int used = 0, skipped = 0, number = 0;
    auto board = std::make_unique<Board>();
    std::vector<std::unique_ptr<arena::games::State>> positions;  // for --search-depth
    for (const std::string& file : files) {
        for (const PgnGame& g : read_pgn(file)) {
            const auto game = game_of(g);
            if (setup.empty()) setup = game->params();
            const std::string result = g.tags.count("Result") ? g.tags.at("Result") : "";
            const std::string ending = g.tags.count("Termination") ? g.tags.at("Termination") : "";
            if (game->params() != setup || ending != "normal" ||
                (result != "1-0" && result != "0-1")) {
                ++skipped;
                continue;
            }
            const int winner = result == "1-0" ? 1 : 2;
            std::size_t opening = 0;
            if (g.tags.count("Opening")) {
                std::istringstream words(g.tags.at("Opening"));
                std::string w;
                while (words >> w)
                    ++opening;
            }
            const bool held_out = holdout > 0 && number % holdout == holdout - 1;
            ++number;
            ++used;
            const auto state = game->new_initial_state();
            load_state(*board, *state);
            for (std::size_t i = 0; i < g.moves.size(); ++i) {
                const int me = board->to_move();
                if (i >= opening && board->five_count(me) == 0 &&
                    board->five_count(other(me)) == 0 && board->flex4_count(me) == 0) {
                    Sample sample{.x = eval_features(*board),
                                  .classic = classic_evaluate(*board),
                                  .current = evaluate(*board, tuned_eval_weights()),
                                  .won = winner == me,
                                  .held_out = held_out};
                    if (search_depth > 0) positions.push_back(state->clone());
                    samples.push_back(std::move(sample));
                }
                const auto move = state->parse_move(g.moves[i]);
                if (!move || !state->is_legal(*move))
                    throw std::runtime_error(g.source + ": not a legal move: " + g.moves[i]);
                board->make(board->from_index(*move));
                state->apply(*move);
            }
        }
    }
    if (samples.empty()) throw std::runtime_error("no positions to fit on");
    std::printf("%d games (%d skipped), %zu positions\n", used, skipped, samples.size());
    // Which positions the scores belong to: a hash of every sample's
    // features and outcome, in order.
    std::uint64_t fingerprint = 0xcbf29ce484222325ULL;
    for (const Sample& sample : samples) {
        for (const int v : sample.x)
            fingerprint = (fingerprint ^ static_cast<std::uint32_t>(v)) * 0x100000001b3ULL;
        fingerprint = (fingerprint ^ (sample.won ? 1U : 0U)) * 0x100000001b3ULL;
    }
    if (search_depth > 0 && !scores_file.empty() && std::ifstream(scores_file)) {
        // The scores of an earlier run on the same games and depth.
        std::ifstream in(scores_file);
        int depth = 0;
        std::size_t count = 0;
        std::uint64_t stored = 0;
        in >> depth >> count >> stored;
        if (!in || depth != search_depth || count != samples.size() || stored != fingerprint)
            throw std::runtime_error(scores_file + ": not the scores of these games at depth " +
                                     std::to_string(search_depth) + " (delete it to search again)");
        for (Sample& sample : samples)
            if (!(in >> sample.score)) throw std::runtime_error(scores_file + ": too short");
        std::printf("read the depth-%d scores from %s\n", search_depth, scores_file.c_str());
    } else if (search_depth > 0) {
        score_positions(positions, samples, search_depth, threads);
        std::printf("searched each to depth %d\n", search_depth);
        if (!scores_file.empty()) {
            std::ofstream out(scores_file);
            out << search_depth << ' ' << samples.size() << ' ' << fingerprint << '\n';
            for (const Sample& sample : samples)
                out << sample.score << '\n';
            if (!out) throw std::runtime_error("cannot write " + scores_file);
        }
    }

    // The hand-set evaluation's scale: the factor that fits it best; the
    // same for the shipped weights, which puts the search's scores (in those
    // weights' units) on the scale of the outcome.
    const auto best_scale = [&](const std::function<int(const Sample&)>& value) {
        double scale = 0, best = 1e9;
        for (double k = 1e-5; k < 1e-1; k *= 1.02) {
            const double loss =
                log_loss(samples, false, [&](const Sample& s) { return k * value(s); });
            if (loss < best) {
                best = loss;
                scale = k;
            }
        }
        return std::pair{scale, best};
    };
    const auto classic_fit = best_scale([](const Sample& s) { return s.classic; });
    const double scale = classic_fit.first;
    const double best = classic_fit.second;
    const double current_scale = best_scale([](const Sample& s) { return s.current; }).first;
    for (Sample& s : samples) {
        s.target = s.won ? 1.0 : 0.0;
        if (search_depth == 0) continue;
        const double searched = s.score >= kMateBound    ? 1.0
                                : s.score <= -kMateBound ? 0.0
                                                         : sigmoid(current_scale * s.score);
        s.target = lambda * s.target + (1 - lambda) * searched;
    }
    const std::vector<double> w = fit(samples, l2);
    const auto fitted = [&](const Sample& s) {
        double z = 0;
        for (std::size_t i = 0; i < w.size(); ++i)
            z += w[i] * s.x[i];
        return z;
    };
    const auto classic = [&](const Sample& s) { return scale * s.classic; };
    std::printf("log-loss      training  held out\n");
    std::printf("fitted        %.4f    %.4f\n", log_loss(samples, false, fitted),
                log_loss(samples, true, fitted));
    std::printf("hand-set      %.4f    %.4f   (scale 1/%.0f)\n", best,
                log_loss(samples, true, classic), 1 / scale);
    const auto current = [&](const Sample& s) { return current_scale * s.current; };
    std::printf("shipped       %.4f    %.4f   (scale 1/%.0f)\n", log_loss(samples, false, current),
                log_loss(samples, true, current), 1 / current_scale);
    if (search_depth > 0) {
        const auto searched = [&](const Sample& s) {
            return std::clamp(current_scale * s.score, -20.0, 20.0);
        };
        std::printf("depth %-2d      %.4f    %.4f\n", search_depth,
                    log_loss(samples, false, searched), log_loss(samples, true, searched));
    }

    EvalWeights weights;
    std::size_t i = 0;
    const auto units = [&] { return static_cast<int>(std::lround(w[i++] / scale)); };
    for (int& v : weights.mine)
        v = units();
    for (int& v : weights.theirs)
        v = units();
    for (int& v : weights.terms)
        v = units();
    weights.bias = units();
    if (!cpp.empty()) {
        char summary[200];
        std::snprintf(
            summary, sizeof summary,
            "%zu positions of %d games;\n// held-out log-loss %.4f (hand-set evaluation %.4f)",
            samples.size(), used, log_loss(samples, true, fitted),
            log_loss(samples, true, classic));
        write_cpp(cpp, weights, summary);
        std::printf("wrote %s\n", cpp.c_str());
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "gomoku-pro-tune: " << e.what() << "\n";
        return 2;
    }
}
