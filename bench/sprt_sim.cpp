// sprt_sim: how many games the GSPRT needs to decide, with pentanomial
// counts (colour-swapped pairs) and with trinomial counts (games), in
// simulated head-to-heads (the model: bench/sprt_model.hpp), for
// scripts/bench and docs/performance.md.
//
//   sprt_sim --first-score F --draw-rate D [--spread S] --true-elo X
//            [--true-in logistic|normalized] [--elo0 0] [--elo1 10]
//            [--alpha 0.05] [--beta 0.05] [--model normalized|logistic]
//            [--tests 500] [--max-games 100000] [--seed 1] [--threads 1]
//            [--name NAME]
//   sprt_sim --replay FILE|- [--elo0 ...] [--model ...]
//
// The first form runs --tests simulated tests, each on its own games drawn
// from the model with A --true-elo stronger than B (in Elo of A's mean
// score, or in normalized Elo from pairs: --true-in, by default the
// test's --model), and tests those games both ways, each until it decides
// or --max-games are played. It prints one JSON object: the model, what the
// SPRT measures of it, and per kind of counts the mean, median and 90th
// percentile of the games to a decision (an undecided test counts as
// --max-games) and the H1, H0 and undecided tests.
//
// With --replay, the file holds A's score in each game of a played match,
// one per line (1, 0.5 or 0; pairs are games 1-2, 3-4, ...), and it prints
// where each kind of test decided, or its LLR after the last game.

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "arena/rating/sprt.hpp"
#include "bench/sprt_model.hpp"

namespace {

using namespace arena;
using nlohmann::json;

std::uint64_t splitmix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

json summary(const std::vector<bench::TestOutcome>& outcomes) {
    std::vector<std::int64_t> games;
    std::int64_t h1 = 0, h0 = 0, undecided = 0;
    double total = 0.0;
    for (const auto& o : outcomes) {
        games.push_back(o.games);
        total += static_cast<double>(o.games);
        if (o.decision == rating::SprtDecision::accept_h1) {
            ++h1;
        } else if (o.decision == rating::SprtDecision::accept_h0) {
            ++h0;
        } else {
            ++undecided;
        }
    }
    std::sort(games.begin(), games.end());
    const auto at = [&](double q) {
        const double k = q * static_cast<double>(games.size() - 1);
        const auto lo = static_cast<std::size_t>(k);
        const std::size_t hi = std::min(lo + 1, games.size() - 1);
        return static_cast<double>(games[lo]) +
               (static_cast<double>(games[hi] - games[lo])) * (k - static_cast<double>(lo));
    };
    const auto n = static_cast<double>(outcomes.size());
    return {{"games_mean", total / n},
            {"games_median", at(0.5)},
            {"games_p90", at(0.9)},
            {"h1", h1},
            {"h0", h0},
            {"undecided", undecided},
            {"h1_share", static_cast<double>(h1) / n},
            {"h0_share", static_cast<double>(h0) / n}};
}

json options_json(const rating::SprtOptions& o) {
    return {{"model", o.model == rating::SprtModel::logistic ? "logistic" : "normalized"},
            {"elo0", o.elo0},
            {"elo1", o.elo1},
            {"alpha", o.alpha},
            {"beta", o.beta}};
}

json outcome_json(const bench::ReplayOutcome& o) {
    return {{"decision", std::string(rating::decision_name(o.decision))},
            {"games", o.games ? json(*o.games) : json(nullptr)},
            {"llr", o.llr}};
}

std::vector<double> read_scores(const std::string& path) {
    std::ifstream file;
    if (path != "-") {
        file.open(path);
        if (!file) throw std::invalid_argument("--replay: cannot open '" + path + "'");
    }
    std::istream& in = path == "-" ? std::cin : file;
    std::vector<double> scores;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.empty()) continue;
        std::size_t used = 0;
        double score = -1.0;
        try {
            score = std::stod(line, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != line.size() || (score != 0.0 && score != 0.5 && score != 1.0)) {
            throw std::invalid_argument("--replay " + path + " line " + std::to_string(number) +
                                        ": '" + line + "' is not a score (1, 0.5 or 0)");
        }
        scores.push_back(score);
    }
    return scores;
}

}  // namespace

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    bench::GameSetting setting;
    rating::SprtOptions options;
    options.elo0 = 0.0;
    options.elo1 = 10.0;
    std::string model_name = "normalized", true_in, name, replay_path;
    double true_elo = 0.0;
    int tests = 500, threads = 1;
    std::int64_t max_games = 100000;
    std::uint64_t seed = 1;
    po::options_description opts("options");
    // clang-format off
    opts.add_options()
        ("help,h", "show this help")
        ("first-score", po::value<double>(&setting.first_score), "the first mover's expected score between equal bots")
        ("draw-rate", po::value<double>(&setting.draw_rate), "the share of draws between equal bots")
        ("spread", po::value<double>(&setting.spread)->default_value(0.0), "standard deviation of the first-mover advantage across openings, Elo")
        ("true-elo", po::value<double>(&true_elo), "how much stronger A is")
        ("true-in", po::value<std::string>(&true_in), "logistic (Elo of A's mean score) or normalized (normalized Elo from pairs); default: --model")
        ("elo0", po::value<double>(&options.elo0)->default_value(0.0), "H0 of the test")
        ("elo1", po::value<double>(&options.elo1)->default_value(10.0), "H1 of the test")
        ("alpha", po::value<double>(&options.alpha)->default_value(0.05), "alpha of the test")
        ("beta", po::value<double>(&options.beta)->default_value(0.05), "beta of the test")
        ("model", po::value<std::string>(&model_name)->default_value("normalized"), "normalized or logistic")
        ("tests", po::value<int>(&tests)->default_value(500), "simulated tests")
        ("max-games", po::value<std::int64_t>(&max_games)->default_value(100000), "games after which a test stops undecided")
        ("seed", po::value<std::uint64_t>(&seed)->default_value(1), "seed of the simulation")
        ("threads", po::value<int>(&threads)->default_value(1), "threads sharing the tests")
        ("name", po::value<std::string>(&name), "a name for the setting, echoed in the output")
        ("replay", po::value<std::string>(&replay_path), "test a played match's scores (a file, or - for stdin)");
    // clang-format on
    bool simulate = true;
    try {
        po::variables_map vm;
        po::store(po::parse_command_line(argc, argv, opts), vm);
        if (vm.count("help")) {
            std::cout << "usage: sprt_sim --first-score F --draw-rate D [--spread S] --true-elo X "
                         "[options]\n       sprt_sim --replay FILE|- [options]\n\n"
                      << opts;
            return 0;
        }
        po::notify(vm);
        const auto model = rating::parse_sprt_model(model_name);
        if (!model) throw std::invalid_argument("--model: '" + model_name + "' is not a model");
        options.model = *model;
        if (const std::string problem = rating::sprt_options_problem(options, "--");
            !problem.empty())
            throw std::invalid_argument(problem);
        simulate = !vm.count("replay");
        if (simulate) {
            for (const char* required : {"first-score", "draw-rate", "true-elo"})
                if (!vm.count(required))
                    throw std::invalid_argument(std::string("missing --") + required);
            if (const std::string problem = bench::setting_problem(setting); !problem.empty())
                throw std::invalid_argument("--" + problem);
            if (!true_in.empty() && !rating::parse_sprt_model(true_in))
                throw std::invalid_argument("--true-in: '" + true_in + "' is not a model");
            if (tests < 1) throw std::invalid_argument("--tests must be at least 1");
            if (max_games < 2) throw std::invalid_argument("--max-games must be at least 2");
            if (threads < 1) throw std::invalid_argument("--threads must be at least 1");
        }
    } catch (const std::exception& e) {
        std::cerr << "sprt_sim: " << e.what() << "\n(sprt_sim --help for usage)\n";
        return 2;
    }

    try {
        if (!simulate) {
            const auto r = bench::replay(read_scores(replay_path), options);
            std::cout << json{{"test", options_json(options)},
                              {"games", r.games},
                              {"pentanomial", outcome_json(r.pentanomial)},
                              {"trinomial", outcome_json(r.trinomial)}}
                             .dump()
                      << "\n";
            return 0;
        }
        const rating::SprtModel scale =
            true_in.empty() ? options.model : *rating::parse_sprt_model(true_in);
        const double strength = bench::strength_for(setting, true_elo, scale);
        const bench::PairModel model(setting, strength);
        const bench::Truth t = bench::truth(model);

        const double cpu_start = cpu_seconds();
        const auto wall_start = std::chrono::steady_clock::now();
        std::vector<bench::SimulatedTest> results(static_cast<std::size_t>(tests));
        {
            std::vector<std::jthread> workers;
            for (int w = 0; w < threads; ++w) {
                workers.emplace_back([&, w] {
                    for (int i = w; i < tests; i += threads)
                        results[static_cast<std::size_t>(i)] = bench::simulate_test(
                            model, options, max_games,
                            splitmix(seed * 0x100000001b3ULL + static_cast<std::uint64_t>(i)));
                });
            }
        }
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
        std::vector<bench::TestOutcome> penta, tri;
        for (const auto& r : results) {
            penta.push_back(r.pentanomial);
            tri.push_back(r.trinomial);
        }
        json p = summary(penta), g = summary(tri);
        json out = {{"name", name},
                    {"setting",
                     {{"first_score", setting.first_score},
                      {"draw_rate", setting.draw_rate},
                      {"spread_elo", setting.spread},
                      {"first_mover_advantage_elo", model.advantage()},
                      {"draw_factor", model.draw_factor()}}},
                    {"truth",
                     {{"target", true_elo},
                      {"in", scale == rating::SprtModel::logistic ? "logistic" : "normalized"},
                      {"strength_elo", strength},
                      {"score", t.score},
                      {"elo", t.elo},
                      {"nelo_pairs", t.nelo_pairs},
                      {"nelo_games", t.nelo_games},
                      {"draw_rate", t.draw_rate},
                      {"even_pairs", t.even_pairs},
                      {"pairs", t.pairs},
                      {"games_lossdrawwin", t.games}}},
                    {"test", options_json(options)},
                    {"tests", tests},
                    {"max_games", max_games},
                    {"seed", seed},
                    {"pentanomial", p},
                    {"trinomial", g},
                    {"mean_games_trinomial_over_pentanomial",
                     g["games_mean"].get<double>() / p["games_mean"].get<double>()},
                    {"median_games_trinomial_over_pentanomial",
                     g["games_median"].get<double>() / p["games_median"].get<double>()},
                    {"cpu_seconds", cpu_seconds() - cpu_start},
                    {"wall_seconds", wall}};
        std::cout << out.dump() << "\n";
    } catch (const std::exception& e) {
        std::cerr << "sprt_sim: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
