// fill_store: writes a results database of synthetic Connect-4 games through
// the arena's own store (the real schema, one transaction per game), for the
// scale benchmarks of `arena standings` and the database size.
//
//   fill_store DB --players P --games N [--tournament NAME] [--seed S]
//
// Players have hidden strengths spread over about 1000 Elo; each game pairs
// two random players and draws its result from the Elo model with a 10 %
// draw rate. Every game stores seven moves (a real opening of column
// numbers). The tournament is marked finished.

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "arena/store/results_store.hpp"

namespace {

using namespace arena;

int usage() {
    std::cerr << "usage: fill_store DB --players P --games N [--tournament NAME] [--seed S]\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage();
    const std::string db = argv[1];
    long players = 0, games = 0;
    std::uint64_t seed = 1;
    std::string name = "synthetic";
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const std::string value = argv[i + 1];
        if (flag == "--players") {
            players = std::stol(value);
        } else if (flag == "--games") {
            games = std::stol(value);
        } else if (flag == "--tournament") {
            name = value;
        } else if (flag == "--seed") {
            seed = std::stoull(value);
        } else {
            return usage();
        }
    }
    if (players < 2 || games < 1) return usage();
    try {
        store::ResultsStore store(db);
        std::vector<store::BotEntry> bots;
        for (long p = 0; p < players; ++p)
            bots.push_back({"p" + std::to_string(p), "synthetic", "arena1", ""});
        const auto id = store.create_tournament(
            {name, "connect4", "# synthetic\n", "synthetic", seed, games}, bots);
        std::mt19937_64 rng(seed);
        std::vector<double> strength(static_cast<std::size_t>(players));
        std::normal_distribution<double> spread(0.0, 250.0);
        for (auto& s : strength)
            s = spread(rng);
        std::uniform_int_distribution<long> pick(0, players - 1);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        record::GameRecord record;
        record.game = "connect4";
        record.params = {{"rows", "6"}, {"cols", "7"}, {"connect", "4"}};
        for (const char* m : {"4", "4", "3", "5", "3", "3", "2"}) {
            record::MoveRecord move;
            move.move = m;
            move.player = static_cast<int>(record.moves.size() % 2) + 1;
            move.time = std::chrono::microseconds(1500);
            record.moves.push_back(move);
        }
        const auto started = std::chrono::steady_clock::now();
        for (long g = 0; g < games; ++g) {
            const long a = pick(rng);
            long b = pick(rng);
            while (b == a)
                b = pick(rng);
            const double expected =
                1.0 / (1.0 + std::pow(10.0, -(strength[a] - strength[b]) / 400.0));
            const double u = unit(rng);
            record.outcome = u < 0.1                ? games::Outcome::kDraw
                             : unit(rng) < expected ? games::Outcome::kWin1
                                                    : games::Outcome::kWin2;
            record.players[0] = "p" + std::to_string(a);
            record.players[1] = "p" + std::to_string(b);
            record.started_at = std::chrono::system_clock::now();
            record.duration = std::chrono::microseconds(20'000);
            store.record_game(id, {g, 0, static_cast<int>(g / 2), static_cast<int>(g % 2), ""},
                              record);
        }
        store.set_status(id, "finished");
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        std::printf("{\"games\":%ld,\"players\":%ld,\"seconds\":%.3f,\"games_per_s\":%.0f}\n",
                    games, players, secs, static_cast<double>(games) / secs);
    } catch (const std::exception& e) {
        std::cerr << "fill_store: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
