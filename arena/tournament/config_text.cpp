#include "arena/tournament/config_text.hpp"

#include <yaml-cpp/yaml.h>

#include <filesystem>

#include "arena/session/command_line.hpp"

namespace arena::tournament {
namespace {

std::string_view schedule_name(ScheduleType type) {
    switch (type) {
        case ScheduleType::kRoundRobin:
            return "round-robin";
        case ScheduleType::kGauntlet:
            return "gauntlet";
        case ScheduleType::kLadder:
            return "ladder";
    }
    return "round-robin";
}

std::string_view order_name(OpeningOrder order) {
    return order == OpeningOrder::kRandom ? "random" : "sequential";
}

// A map on one line: { key: value, ... }.
template <typename Fill>
void flow_map(YAML::Emitter& y, const char* key, Fill fill) {
    y << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginMap;
    fill();
    y << YAML::EndMap;
}

void emit_schedule(YAML::Emitter& y, const Config& c) {
    flow_map(y, "schedule", [&] {
        y << YAML::Key << "type" << YAML::Value << std::string(schedule_name(c.schedule));
        y << YAML::Key << "games_per_pair" << YAML::Value << c.games_per_pair;
        if (c.rounds != 1) y << YAML::Key << "rounds" << YAML::Value << c.rounds;
        if (c.schedule == ScheduleType::kGauntlet)
            y << YAML::Key << "challenger" << YAML::Value << c.challenger;
        if (c.sprt) {
            y << YAML::Key << "sprt" << YAML::Value << YAML::BeginMap;
            y << YAML::Key << "elo0" << YAML::Value << c.sprt->elo0;
            y << YAML::Key << "elo1" << YAML::Value << c.sprt->elo1;
            y << YAML::Key << "alpha" << YAML::Value << c.sprt->alpha;
            y << YAML::Key << "beta" << YAML::Value << c.sprt->beta;
            y << YAML::Key << "model" << YAML::Value
              << (c.sprt->model == rating::SprtModel::logistic ? "logistic" : "normalized");
            y << YAML::EndMap;
        }
    });
}

void emit_openings(YAML::Emitter& y, const Config& c) {
    flow_map(y, "openings", [&] {
        if (c.openings.file.empty()) {
            y << YAML::Key << "random_plies" << YAML::Value << c.openings.random_plies;
            return;
        }
        y << YAML::Key << "file" << YAML::Value
          << std::filesystem::absolute(c.openings.file).string();
        if (c.openings.order != OpeningOrder::kSeededStart)
            y << YAML::Key << "order" << YAML::Value << std::string(order_name(c.openings.order));
        if (c.openings.start != 1) y << YAML::Key << "start" << YAML::Value << c.openings.start;
    });
}

void emit_bots(YAML::Emitter& y, const Config& c) {
    y << YAML::Key << "bots" << YAML::Value << YAML::BeginSeq;
    for (const auto& b : c.bots) {
        y << YAML::Flow << YAML::BeginMap;
        y << YAML::Key << "name" << YAML::Value << b.name;
        y << YAML::Key << "command" << YAML::Value << session::join_command(b.argv);
        y << YAML::Key << "protocol" << YAML::Value << b.protocol;
        if (b.restart_each_game) y << YAML::Key << "restart" << YAML::Value << "per-game";
        if (!b.dir.empty()) y << YAML::Key << "dir" << YAML::Value << b.dir.string();
        if (b.time && *b.time != c.time) {
            y << YAML::Key << "time" << YAML::Value << YAML::Flow << YAML::BeginMap;
            y << YAML::Key << "move_ms" << YAML::Value << b.time->move.count();
            y << YAML::Key << "tolerance_ms" << YAML::Value << b.time->tolerance.count();
            y << YAML::Key << "game_ms" << YAML::Value << b.time->game.count();
            y << YAML::Key << "inc_ms" << YAML::Value << b.time->increment.count();
            y << YAML::EndMap;
        }
        if (b.limits.depth) y << YAML::Key << "depth" << YAML::Value << *b.limits.depth;
        if (b.limits.nodes) y << YAML::Key << "nodes" << YAML::Value << *b.limits.nodes;
        y << YAML::EndMap;
    }
    y << YAML::EndSeq;
}

}  // namespace

std::string config_text(const Config& c, const std::string& comment) {
    YAML::Emitter y;
    y.SetDoublePrecision(15);  // 0.05, not 0.050000000000000003
    if (!comment.empty()) y << YAML::Comment(comment);
    y << YAML::BeginMap;
    y << YAML::Key << "name" << YAML::Value << c.name;
    flow_map(y, "game", [&] {
        y << YAML::Key << "name" << YAML::Value << c.game;
        for (const auto& [k, v] : c.game_params)
            y << YAML::Key << k << YAML::Value << v;
    });
    flow_map(y, "time", [&] {
        y << YAML::Key << "move_ms" << YAML::Value << c.time.move.count();
        y << YAML::Key << "tolerance_ms" << YAML::Value << c.time.tolerance.count();
        if (c.time.game.count() > 0) {
            y << YAML::Key << "game_ms" << YAML::Value << c.time.game.count();
            y << YAML::Key << "inc_ms" << YAML::Value << c.time.increment.count();
        }
        y << YAML::Key << "startup_ms" << YAML::Value << c.startup_ms;
        if (!c.realtime_deadlines) y << YAML::Key << "realtime" << YAML::Value << false;
    });
    emit_schedule(y, c);
    emit_openings(y, c);
    y << YAML::Key << "seed" << YAML::Value << c.seed;
    if (c.transcript) y << YAML::Key << "transcript" << YAML::Value << true;
    if (c.count_repeats) y << YAML::Key << "count_repeats" << YAML::Value << true;
    emit_bots(y, c);
    y << YAML::EndMap;
    return std::string(y.c_str()) + "\n";
}

}  // namespace arena::tournament
