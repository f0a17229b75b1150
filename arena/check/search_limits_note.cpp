#include "arena/check/search_limits_note.hpp"

#include <random>
#include <sstream>
#include <utility>
#include <vector>

#include "arena/check/wording.hpp"
#include "arena/games/registry.hpp"
#include "arena/match/opening.hpp"
#include "arena/match/time_control.hpp"
#include "protocol/codec.hpp"

namespace arena::check {
namespace {

constexpr std::string_view kName = "search limits";
// Random plies before the probe's position: past the first move, and too
// few for a threat on the standard boards (with two stones of one side in a
// row, a Connect-4 search may prove a win within a few plies, and a proof
// ends any search at once, whatever the depth asked).
constexpr int kProbePlies = 2;

std::string limit_text(const char* key, std::int64_t n) {
    return std::string(key) + "=" + std::to_string(n);
}

// "depth=1 in 3 ms (move c3, info depth 1)".
std::string answer_text(const std::string& limit, const LimitAnswer& a) {
    std::string text = limit + " in " + ms_text(a.ms) + " (move " + a.move;
    if (a.depth) text += ", info depth " + std::to_string(*a.depth);
    if (a.nodes) text += ", info nodes " + std::to_string(*a.nodes);
    if (a.simulations) text += ", info simulations " + std::to_string(*a.simulations);
    return text + ")";
}

LimitAnswer ask(session::BotSession& session, const protocol::Position& position,
                const match::GameClock& clock, int player, std::optional<std::int64_t> depth,
                std::optional<std::int64_t> nodes) {
    protocol::Go go = clock.go(player);
    go.depth = depth;
    go.nodes = nodes;
    const auto reply = session.request_move(position, go, clock.limit(player));
    LimitAnswer a;
    if (reply.fault != session::Fault::kNone) {
        a.problem = std::string(session::to_string(reply.fault)) + ": " + reply.detail;
        return a;
    }
    a.answered = true;
    a.move = reply.move;
    a.ms = to_ms(reply.elapsed());
    for (const auto& line : reply.info) {
        if (const auto d = protocol::info_value(line, "depth")) a.depth = d;
        if (const auto n = protocol::info_value(line, "nodes")) a.nodes = n;
        if (const auto n = protocol::info_value(line, "simulations")) a.simulations = n;
    }
    return a;
}

}  // namespace

CheckResult judge_search_limits(const LimitAnswer& shallow, const LimitAnswer& deep,
                                const LimitAnswer& nodes, double move_ms) {
    CheckResult r;
    r.name = std::string(kName);
    for (const auto* a : {&shallow, &deep, &nodes}) {
        if (a->answered) continue;
        r.status = Status::kSkip;
        r.detail = "could not be probed: " + a->problem;
        return r;
    }
    const std::string d1 = limit_text("depth", 1), dn = limit_text("depth", kDeepDepth);
    const std::string dnodes = limit_text("nodes", kNodeLimit);
    const auto within = [](const std::optional<std::int64_t>& n) {
        return n && *n <= 2 * kNodeLimit;
    };
    std::vector<std::string> depth_signs, node_signs;
    if (shallow.depth == 1 && deep.depth == kDeepDepth)
        depth_signs.emplace_back("its info lines report the depths asked");
    // Another move counts where depth=1 answered well inside its time: a
    // search by time may change its mind from one run to the next.
    if (shallow.move != deep.move && shallow.ms < move_ms / 4) {
        depth_signs.push_back("the move changes with depth (" + shallow.move + " at " + d1 + ", " +
                              deep.move + " at " + dn + ")");
    }
    if (shallow.ms * 2 < deep.ms && deep.ms >= 5)
        depth_signs.push_back(d1 + " answers faster than " + dn);
    // Counts within the limit where depth=6 counted past it (a bot that
    // searches little anyway reports small counts whatever it is asked).
    const auto above = [](const std::optional<std::int64_t>& n) { return n && *n > kNodeLimit; };
    if ((within(nodes.nodes) && above(deep.nodes)) ||
        (within(nodes.simulations) && above(deep.simulations))) {
        node_signs.push_back("the nodes or simulations it reports stay within about " +
                             std::to_string(kNodeLimit) + ", past which " + dn + " went");
    }
    if (nodes.ms * 2 < deep.ms && deep.ms >= 5)
        node_signs.push_back(dnodes + " answers faster than " + dn);
    const std::string figures =
        answer_text(d1, shallow) + ", " + answer_text(dn, deep) + ", " + answer_text(dnodes, nodes);
    if (depth_signs.empty() && node_signs.empty()) {
        r.detail = "no sign that depth= or nodes= are honoured (the same move " + shallow.move +
                   " at " + d1 + " and " + dn + ", in " + ms_text(shallow.ms) + " and " +
                   ms_text(deep.ms) + "; no info line reports the depth or nodes asked); fine " +
                   "if the bot does not search: " + figures;
        return r;
    }
    const auto verdict = [](const std::vector<std::string>& signs) {
        if (signs.empty()) return std::string("no sign it is honoured");
        std::string text = "honoured (";
        for (std::size_t i = 0; i < signs.size(); ++i)
            text += (i == 0 ? "" : "; ") + signs[i];
        return text + ")";
    };
    r.detail =
        "depth= " + verdict(depth_signs) + ", nodes= " + verdict(node_signs) + ": " + figures;
    return r;
}

bool told_search_limits(BotKind kind) {
    return kind == BotKind::kArena1 || kind == BotKind::kNboard;
}

CheckResult probe_search_limits(session::BotSession* session, const CheckOptions& o,
                                const games::Params& params) {
    switch (o.kind) {
        case BotKind::kGomocup:
            return {.name = std::string(kName),
                    .status = Status::kSkip,
                    .detail =
                        "depth= and nodes= are not sent to a Gomocup brain (its protocol "
                        "has no such command; protocol/GOMOCUP.md)",
                    .sent = {},
                    .received = {},
                    .stderr_tail = {},
                    .expected = {}};
        case BotKind::kTsinghuaSo:
            return {.name = std::string(kName),
                    .status = Status::kSkip,
                    .detail = "a strategy library's getPoint is told no search limits",
                    .sent = {},
                    .received = {},
                    .stderr_tail = {},
                    .expected = {}};
        case BotKind::kArena1:
        case BotKind::kNboard:
            break;
    }
    const auto rules = games::make_game(o.game, params);
    auto state = rules->new_initial_state();
    protocol::Position position;
    std::mt19937_64 rng(match::derive_seed(o.seed, 2000));
    for (int i = 0; i < kProbePlies && !state->is_over(); ++i) {
        const auto legal = state->legal_moves();
        const auto m = legal[rng() % legal.size()];
        position.moves.push_back(state->format_move(m));
        state->apply(m);
    }
    while (!state->is_over() && state->legal_moves() == std::vector<games::Move>{games::kPass}) {
        position.moves.emplace_back("pass");
        state->apply(games::kPass);
    }
    const int player = state->current_player();
    protocol::GameStart start{o.game, player, params};
    for (auto& kv : o.time.keys())
        start.params.push_back(std::move(kv));
    const match::GameClock clock(o.time);
    LimitAnswer shallow, deep, nodes;
    if (state->is_over()) {
        shallow.problem = "no position to ask for";
    } else if (session == nullptr || !session->start_game(start)) {
        shallow.problem = "it did not accept the `game` line";
    } else {
        shallow = ask(*session, position, clock, player, 1, std::nullopt);
        if (shallow.answered)
            deep = ask(*session, position, clock, player, kDeepDepth, std::nullopt);
        if (deep.answered) nodes = ask(*session, position, clock, player, std::nullopt, kNodeLimit);
        if (nodes.answered)
            session->end_game({.result = protocol::GameResult::kDraw, .reason = "normal"});
    }
    return judge_search_limits(shallow, deep, nodes, static_cast<double>(clock.go(player).move_ms));
}

}  // namespace arena::check
