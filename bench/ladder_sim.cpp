// ladder_sim: how close the ladder schedule (arena/tournament/ladder.hpp)
// gets to a full round-robin's ratings with a fraction of its games, in a
// simulated league of bots with known true strengths, for scripts/bench and
// docs/performance.md.
//
//   ladder_sim [--bots 100] [--seeds 5] [--seed 1] [--late 10] [--spread 200]
//              [--draw-rate 0.3] [--advantage 30] [--games-per-entrant 60]
//              [--target-error 75] [--opponents-per-round 4]
//              [--games-per-pair 2]
//
// Per seed, the true strengths are drawn from a normal distribution with
// standard deviation --spread (Elo), and three leagues are played with
// their own games:
//   round_robin  every two bots play one colour-swapped pair per
//                games_per_pair / 2 (9900 games for 100 bots, 2 per pair);
//   scratch      every bot placed by the ladder in turn, the first against
//                nobody, the last against the 99 before it;
//   league       bots - 1 bots in a round-robin, then the last one placed
//                by the ladder: a standing league's late entrant; in turn
//                each of the last --late bots is the entrant (medians over
//                them, and the largest difference from the round-robin).
// A game between i (moving first) and j: the first mover's expected score
// is p = 1 / (1 + 10^(-(s_i + advantage - s_j) / 400)); a draw has
// probability draw_rate x 4p(1 - p), a win p minus half of that. Ratings
// are arena/rating's maximum-likelihood fit over each league's games. Errors
// are the differences from the full round-robin's ratings and from the true
// strengths, each set shifted to mean 0 first.
//
// It prints one JSON object: the settings, one entry per seed, and the
// medians over the seeds.

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "arena/rating/elo.hpp"
#include "arena/tournament/ladder.hpp"

namespace {

using namespace arena;
using nlohmann::json;

struct Settings {
    int bots = 100;
    int seeds = 5;
    int late = 10;  // late entrants tried per seed
    std::uint64_t seed = 1;
    double spread = 200.0;
    double draw_rate = 0.3;
    double advantage = 30.0;
    tournament::LadderOptions ladder;
};

std::uint64_t splitmix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// The game model above, with its own random stream.
class GameModel {
  public:
    GameModel(const Settings& s, std::vector<double> strengths, std::uint64_t seed)
        : s_(s), strengths_(std::move(strengths)), rng_(seed) {}

    // The first mover's score in one game of i (first) against j.
    double play(int i, int j) {
        const double d = strengths_[static_cast<std::size_t>(i)] + s_.advantage -
                         strengths_[static_cast<std::size_t>(j)];
        const double p = 1.0 / (1.0 + std::pow(10.0, -d / 400.0));
        const double draw = s_.draw_rate * 4.0 * p * (1.0 - p);
        const double win = p - draw / 2.0;
        const double u = uniform_(rng_);
        if (u < win) return 1.0;
        if (u < win + draw) return 0.5;
        return 0.0;
    }

  private:
    const Settings& s_;
    std::vector<double> strengths_;
    std::mt19937_64 rng_;
    std::uniform_real_distribution<double> uniform_{0.0, 1.0};
};

std::vector<std::string> names(int n) {
    std::vector<std::string> result;
    for (int i = 0; i < n; ++i)
        result.push_back(std::to_string(i));
    return result;
}

// Every two of bots [0, n) play games_per_pair games, colours swapped.
void round_robin(GameModel& model, int n, int games_per_pair, tournament::LadderResults& results) {
    std::int64_t index = results.empty() ? 0 : results.rbegin()->first + 1;
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            for (int g = 0; g < games_per_pair; ++g) {
                const int first = g % 2 == 0 ? i : j, second = g % 2 == 0 ? j : i;
                results[index++] = {first, second, model.play(first, second)};
            }
        }
    }
}

// Places entrants with the ladder from `start` until all are placed.
tournament::Ladder run_ladder(GameModel& model, const Settings& s, int n,
                              tournament::LadderResults& results,
                              tournament::LadderStart start = {}) {
    tournament::Ladder ladder(s.ladder, std::vector<bool>(static_cast<std::size_t>(n), true),
                              start);
    while (const auto round = ladder.next_round(results)) {
        for (const auto& p : round->games)
            results[p.index] = {p.first, p.second, model.play(p.first, p.second)};
    }
    return ladder;
}

rating::EloFit fit(int n, const tournament::LadderResults& results) {
    std::vector<rating::GameResult> games;
    games.reserve(results.size());
    for (const auto& [index, g] : results)
        games.push_back({g.first, g.second, g.score, 1});
    return rating::fit_elo(names(n), games);
}

std::vector<double> centred(std::vector<double> v) {
    double mean = 0.0;
    for (const double x : v)
        mean += x;
    mean /= static_cast<double>(v.size());
    for (double& x : v)
        x -= mean;
    return v;
}

struct Difference {
    double rms = 0.0, max = 0.0;
};

// Of a and b, each shifted to mean 0.
Difference difference(const std::vector<double>& a, const std::vector<double>& b) {
    const auto ca = centred(a), cb = centred(b);
    Difference d;
    for (std::size_t i = 0; i < ca.size(); ++i) {
        const double e = std::abs(ca[i] - cb[i]);
        d.rms += e * e;
        d.max = std::max(d.max, e);
    }
    d.rms = std::sqrt(d.rms / static_cast<double>(ca.size()));
    return d;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

json one_seed(const Settings& s, std::uint64_t seed) {
    const int n = s.bots;
    std::mt19937_64 rng(splitmix(seed));
    std::normal_distribution<double> normal(0.0, s.spread);
    std::vector<double> truth;
    for (int i = 0; i < n; ++i)
        truth.push_back(normal(rng));

    const auto started = std::chrono::steady_clock::now();
    // (a) The full round-robin.
    GameModel rr_model(s, truth, splitmix(seed ^ 0x1111));
    tournament::LadderResults rr_games;
    round_robin(rr_model, n, s.ladder.games_per_pair, rr_games);
    const auto rr = fit(n, rr_games);

    // (b) Every bot placed by the ladder, one after the other.
    GameModel scratch_model(s, truth, splitmix(seed ^ 0x2222));
    tournament::LadderResults scratch_games;
    const auto scratch_ladder = run_ladder(scratch_model, s, n, scratch_games);
    const auto scratch = fit(n, scratch_games);
    std::int64_t most = 0;
    int at_cap = 0;
    for (const auto& p : scratch_ladder.placements()) {
        most = std::max(most, p.games);
        if (p.games > 0 && !p.reached_target) ++at_cap;
    }
    // How often the true strength is inside the reported 95 % interval.
    const auto centred_truth = centred(truth), centred_scratch = centred(scratch.ratings);
    int covered = 0;
    for (std::size_t i = 0; i < truth.size(); ++i)
        if (std::abs(centred_scratch[i] - centred_truth[i]) <= scratch.errors[i]) ++covered;

    // (c) A league of n - 1 rated by a round-robin, and one late entrant:
    // in turn each of the last `late` bots, the others making up the league.
    const auto rr_c = centred(rr.ratings);
    std::vector<double> late_games, late_error, late_rr, late_truth, rr_truth_late;
    int reached = 0;
    for (int t = 0; t < s.late; ++t) {
        // Entrant j plays as the last bot: its strength and the
        // round-robin's rating of it swapped with those of bot n - 1.
        const auto j = static_cast<std::size_t>(n - 1 - t), last = static_cast<std::size_t>(n - 1);
        auto strengths = truth;
        std::swap(strengths[j], strengths[last]);
        GameModel league_model(s, strengths,
                               splitmix(seed ^ (0x3333 + static_cast<std::uint64_t>(t))));
        tournament::LadderResults league_games;
        round_robin(league_model, n - 1, s.ladder.games_per_pair, league_games);
        const auto before = static_cast<std::int64_t>(league_games.size());
        tournament::LadderStart start;
        start.entrant = n - 1;
        start.index = before;
        start.pair = static_cast<int>(before / 2);
        const auto ladder = run_ladder(league_model, s, n, league_games, start);
        const auto league = fit(n, league_games);
        const auto league_c = centred(league.ratings);
        late_games.push_back(static_cast<double>(league_games.size()) -
                             static_cast<double>(before));
        late_error.push_back(league.errors[last]);
        late_rr.push_back(std::abs(league_c[last] - rr_c[j]));
        late_truth.push_back(std::abs(league_c[last] - centred_truth[j]));
        rr_truth_late.push_back(std::abs(rr_c[j] - centred_truth[j]));
        if (ladder.placements().back().reached_target) ++reached;
    }
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    const auto rr_truth = difference(rr.ratings, truth);
    const auto scratch_rr = difference(scratch.ratings, rr.ratings);
    const auto scratch_truth = difference(scratch.ratings, truth);
    return {
        {"seed", seed},
        {"round_robin",
         {{"games", rr_games.size()}, {"truth_rms", rr_truth.rms}, {"truth_max", rr_truth.max}}},
        {"scratch",
         {{"games", scratch_games.size()},
          {"games_share",
           static_cast<double>(scratch_games.size()) / static_cast<double>(rr_games.size())},
          {"most_games_per_entrant", most},
          {"at_games_per_entrant", at_cap},
          {"rr_rms", scratch_rr.rms},
          {"rr_max", scratch_rr.max},
          {"truth_rms", scratch_truth.rms},
          {"truth_max", scratch_truth.max},
          {"coverage", static_cast<double>(covered) / static_cast<double>(n)}}},
        {"league",
         {{"entrants", s.late},
          {"entrant_games", median(late_games)},
          {"round_robin_entrant_games", (n - 1) * s.ladder.games_per_pair},
          {"entrant_error", median(late_error)},
          {"entrant_rr_diff", median(late_rr)},
          {"entrant_rr_diff_max", *std::max_element(late_rr.begin(), late_rr.end())},
          {"entrant_truth_diff", median(late_truth)},
          {"rr_entrant_truth_diff", median(rr_truth_late)},
          {"reached_target", reached}}},
        {"seconds", seconds}};
}

json medians(const json& runs) {
    json m;
    for (const char* league : {"round_robin", "scratch", "league"}) {
        for (const auto& [key, value] : runs.front()[league].items()) {
            if (!value.is_number()) continue;
            std::vector<double> v;
            for (const auto& r : runs)
                v.push_back(r[league][key].get<double>());
            m[league][key] = median(v);
        }
    }
    return m;
}

}  // namespace

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    Settings s;
    po::options_description desc("ladder_sim options");
    desc.add_options()("help", "this text")("bots", po::value(&s.bots)->default_value(100),
                                            "bots in the league")(
        "seeds", po::value(&s.seeds)->default_value(5), "leagues simulated")(
        "seed", po::value(&s.seed)->default_value(1), "the first seed")(
        "late", po::value(&s.late)->default_value(10), "late entrants tried per seed")(
        "spread", po::value(&s.spread)->default_value(200.0),
        "standard deviation of the true strengths, Elo")(
        "draw-rate", po::value(&s.draw_rate)->default_value(0.3),
        "draws between equal bots, in [0, 1]")(
        "advantage", po::value(&s.advantage)->default_value(30.0), "first-mover advantage, Elo")(
        "games-per-entrant", po::value(&s.ladder.games_per_entrant)->default_value(60),
        "the ladder's cap")("target-error", po::value(&s.ladder.target_error)->default_value(75.0),
                            "the ladder's target 95 % half-width, Elo")(
        "opponents-per-round", po::value(&s.ladder.opponents_per_round)->default_value(4),
        "opponents in a ladder round")("games-per-pair",
                                       po::value(&s.ladder.games_per_pair)->default_value(2),
                                       "games per meeting, even");
    try {
        po::variables_map vm;
        po::store(po::parse_command_line(argc, argv, desc), vm);
        po::notify(vm);
        if (vm.count("help") != 0) {
            std::cout << desc << "\n";
            return 0;
        }
        if (s.bots < 3) throw std::invalid_argument("--bots must be at least 3");
        if (s.seeds < 1) throw std::invalid_argument("--seeds must be at least 1");
        if (s.late < 1 || s.late > s.bots)
            throw std::invalid_argument("--late must be between 1 and --bots");
        if (s.ladder.games_per_pair < 2 || s.ladder.games_per_pair % 2 != 0)
            throw std::invalid_argument("--games-per-pair must be even and positive");
        if (s.ladder.games_per_entrant < s.ladder.games_per_pair ||
            s.ladder.games_per_entrant % s.ladder.games_per_pair != 0)
            throw std::invalid_argument(
                "--games-per-entrant must be a positive multiple of --games-per-pair");
        if (!(s.ladder.target_error > 0.0))
            throw std::invalid_argument("--target-error must be positive");
        if (s.ladder.opponents_per_round < 1)
            throw std::invalid_argument("--opponents-per-round must be at least 1");
        if (!(s.draw_rate >= 0.0 && s.draw_rate <= 1.0))
            throw std::invalid_argument("--draw-rate must be in [0, 1]");
        if (!(s.spread >= 0.0)) throw std::invalid_argument("--spread must not be negative");
    } catch (const std::exception& e) {
        std::cerr << "ladder_sim: " << e.what() << "\n";
        return 2;
    }
    json runs = json::array();
    for (int k = 0; k < s.seeds; ++k)
        runs.push_back(one_seed(s, s.seed + static_cast<std::uint64_t>(k)));
    json out = {{"settings",
                 {{"bots", s.bots},
                  {"seeds", s.seeds},
                  {"late", s.late},
                  {"seed", s.seed},
                  {"spread", s.spread},
                  {"draw_rate", s.draw_rate},
                  {"advantage", s.advantage},
                  {"games_per_entrant", s.ladder.games_per_entrant},
                  {"target_error", s.ladder.target_error},
                  {"opponents_per_round", s.ladder.opponents_per_round},
                  {"games_per_pair", s.ladder.games_per_pair}}},
                {"runs", runs},
                {"median", medians(runs)}};
    std::cout << out.dump(2) << "\n";
    return 0;
}
