// Micro-benchmarks (Google Benchmark) of the arena's hot paths: the protocol
// codec, the rules on a move cycle, storing a game, the Elo fit at scale, and
// the GSPRT and head-to-head block from counts of a million pairs.
//
//   micro [--benchmark_filter=REGEX] [--benchmark_format=json] ...

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "arena/games/registry.hpp"
#include "arena/rating/elo.hpp"
#include "arena/rating/head_to_head.hpp"
#include "arena/rating/pentanomial.hpp"
#include "arena/rating/sprt.hpp"
#include "arena/store/results_store.hpp"
#include "protocol/codec.hpp"

namespace {

using namespace arena;

// A 20-ply Connect-4 position as the arena sends it.
protocol::Position sample_position() {
    protocol::Position p;
    for (const char* m : {"4", "4", "3", "5", "3", "3", "2", "1", "6", "6",
                          "5", "2", "7", "7", "1", "1", "2", "5", "6", "3"})
        p.moves.emplace_back(m);
    return p;
}

void BM_FormatPositionAndGo(benchmark::State& state) {
    const auto position = sample_position();
    const protocol::Go go{3000, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
    for (auto _ : state) {
        std::string text = protocol::format(position);
        text += '\n';
        text += protocol::format(go);
        benchmark::DoNotOptimize(text);
    }
}
BENCHMARK(BM_FormatPositionAndGo);

void BM_ParseMoveLine(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(protocol::parse_bot_line("move 4"));
}
BENCHMARK(BM_ParseMoveLine);

// What the match layer does with a reply: parse, check, apply (Connect-4 7x6).
void BM_Connect4ParseCheckApply(benchmark::State& state) {
    const auto game = games::make_game("connect4", {});
    for (auto _ : state) {
        auto s = game->new_initial_state();
        int ply = 0;
        while (!s->is_over()) {
            const auto legal = s->legal_moves();
            const auto text = s->format_move(legal[static_cast<std::size_t>(ply++) % legal.size()]);
            const auto move = s->parse_move(text);
            if (!move || !s->is_legal(*move)) state.SkipWithError("bad move");
            s->apply(*move);
        }
        benchmark::DoNotOptimize(s);
    }
}
BENCHMARK(BM_Connect4ParseCheckApply);

// One finished 19-move Connect-4 game stored as the runner stores it: one
// transaction in a WAL database on disk (the temporary directory).
void BM_RecordGame(benchmark::State& state) {
    namespace fs = std::filesystem;
    const auto dir = fs::temp_directory_path() / ("arena-micro-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    {
        store::ResultsStore store(dir / "results.db");
        const auto id =
            store.create_tournament({"micro", "connect4", "# micro\n", "micro", 1, 0},
                                    {{"a", "bot-a", "arena1", ""}, {"b", "bot-b", "arena1", ""}});
        record::GameRecord record;
        record.game = "connect4";
        record.params = {{"rows", "6"}, {"cols", "7"}, {"connect", "4"}};
        record.players[0] = "a";
        record.players[1] = "b";
        record.outcome = games::Outcome::kWin1;
        record.started_at = std::chrono::system_clock::now();
        record.duration = std::chrono::microseconds(600);
        for (const char* m : {"4", "4", "3", "5", "3", "3", "2", "1", "6", "6", "5", "2", "7", "7",
                              "1", "1", "2", "5", "6"}) {
            record::MoveRecord move;
            move.move = m;
            move.player = static_cast<int>(record.moves.size() % 2) + 1;
            move.time = std::chrono::microseconds(30);
            record.moves.push_back(move);
        }
        store::GameSlot slot;
        for (auto _ : state) {
            store.record_game(id, slot, record);
            ++slot.index;
            slot.pair = static_cast<int>(slot.index / 2);
            slot.game_in_pair = static_cast<int>(slot.index % 2);
        }
    }
    fs::remove_all(dir);
}
BENCHMARK(BM_RecordGame)->Unit(benchmark::kMicrosecond);

// The Elo fit of the scale: players x games, random pairings, 10 % draws.
void BM_EloFit(benchmark::State& state) {
    const auto players = static_cast<int>(state.range(0));
    const auto count = static_cast<std::size_t>(state.range(1));
    std::mt19937_64 rng(7);
    std::normal_distribution<double> spread(0.0, 250.0);
    std::vector<double> truth(static_cast<std::size_t>(players));
    std::vector<std::string> names;
    for (int i = 0; i < players; ++i) {
        truth[static_cast<std::size_t>(i)] = spread(rng);
        names.push_back("p" + std::to_string(i));
    }
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<rating::GameResult> games;
    games.reserve(count);
    while (games.size() < count) {
        const auto a = static_cast<int>(rng() % static_cast<std::uint64_t>(players));
        const auto b = static_cast<int>(rng() % static_cast<std::uint64_t>(players));
        if (a == b) continue;
        const double p = 1.0 / (1.0 + std::pow(10.0, -(truth[a] - truth[b]) / 400.0));
        const double u = unit(rng);
        games.push_back({a, b, u < 0.1 ? 0.5 : (unit(rng) < p ? 1.0 : 0.0)});
    }
    for (auto _ : state)
        benchmark::DoNotOptimize(rating::fit_elo(names, games));
}
BENCHMARK(BM_EloFit)->Args({64, 100'000})->Args({1000, 1'000'000})->Unit(benchmark::kMillisecond);

// Pair counts of a head-to-head about 10 Elo apart, 1-1 pairs the most
// common (LL, LD, DD+WL, WD, WW = 6, 17, 50, 19, 8 %), scaled to `pairs`.
rating::Pentanomial sample_pairs(std::int64_t pairs) {
    constexpr double kShare[5] = {0.06, 0.17, 0.50, 0.19, 0.08};
    rating::Pentanomial p;
    std::int64_t given = 0;
    for (std::size_t i = 0; i < 4; ++i) {
        p.bins[i] = std::llround(kShare[i] * static_cast<double>(pairs));
        given += p.bins[i];
    }
    p.bins[4] = pairs - given;
    return p;
}

rating::SprtOptions sample_test(std::int64_t model) {
    rating::SprtOptions o;
    o.elo0 = 0.0;
    o.elo1 = 10.0;
    o.model = model == 0 ? rating::SprtModel::normalized : rating::SprtModel::logistic;
    return o;
}

// The GSPRT from pair counts: range(0) pairs, range(1) 0 = normalized, 1 = logistic.
void BM_SprtPentanomial(benchmark::State& state) {
    const auto pairs = sample_pairs(state.range(0));
    const auto options = sample_test(state.range(1));
    for (auto _ : state)
        benchmark::DoNotOptimize(rating::sprt(pairs, options));
}
BENCHMARK(BM_SprtPentanomial)
    ->Args({1000, 0})
    ->Args({1'000'000, 0})
    ->Args({1'000'000, 1})
    ->Unit(benchmark::kMicrosecond);

// The GSPRT from the same games counted singly: range(0) games.
void BM_SprtTrinomial(benchmark::State& state) {
    const auto games = static_cast<double>(state.range(0));
    const rating::Trinomial t{
        std::llround(0.39 * games), std::llround(0.23 * games),
        state.range(0) - std::llround(0.39 * games) - std::llround(0.23 * games)};
    const auto options = sample_test(state.range(1));
    for (auto _ : state)
        benchmark::DoNotOptimize(rating::sprt(t, options));
}
BENCHMARK(BM_SprtTrinomial)->Args({2'000'000, 0})->Unit(benchmark::kMicrosecond);

// Elo, nElo, LOS and the ratios from pair counts: range(0) pairs.
void BM_HeadToHeadPentanomial(benchmark::State& state) {
    const auto pairs = sample_pairs(state.range(0));
    for (auto _ : state)
        benchmark::DoNotOptimize(rating::head_to_head(pairs));
}
BENCHMARK(BM_HeadToHeadPentanomial)->Arg(1'000'000)->Unit(benchmark::kMicrosecond);

// One live update of `arena match --sprt` after a pair, at its most: the LLR
// and the head-to-head block recomputed from the counts (range(0) pairs,
// the default normalized test elo0=0, elo1=10).
void BM_SprtLiveUpdate(benchmark::State& state) {
    auto pairs = sample_pairs(state.range(0));
    const auto options = sample_test(0);
    std::size_t bin = 0;
    for (auto _ : state) {
        ++pairs.bins[bin];  // the pair just completed
        bin = (bin + 1) % 5;
        benchmark::DoNotOptimize(rating::sprt(pairs, options));
        benchmark::DoNotOptimize(rating::head_to_head(pairs));
    }
}
BENCHMARK(BM_SprtLiveUpdate)->Arg(1'000'000)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
