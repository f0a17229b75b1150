#include "arena/tournament/fingerprint.hpp"

#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <memory>
#include <sstream>

namespace arena::tournament {

std::string fingerprint(const Config& c) {
    std::ostringstream f;
    f << "game: " << c.game;
    for (const auto& [k, v] : c.game_params)
        f << " " << k << "=" << v;
    f << "\ntime: move_ms=" << c.time.move.count() << " tolerance_ms=" << c.time.tolerance.count()
      << " game_ms=" << c.time.game.count() << " inc_ms=" << c.time.increment.count()
      << " startup_ms=" << c.startup_ms << "\n";
    f << "schedule: ";
    if (c.challengers_from_bots_dir) {
        // The references, so that a stored tournament keeps them.
        f << "gauntlet challengers=bots_dir references=";
        const char* comma = "";
        for (const auto& b : c.bots) {
            if (!b.manifest.empty()) continue;
            f << comma << b.name;
            comma = ",";
        }
    } else {
        f << (c.schedule == ScheduleType::kGauntlet
                  ? "gauntlet challenger=" + c.challenger
                  : std::string(c.schedule == ScheduleType::kLadder ? "ladder" : "round-robin"));
    }
    // A ladder's games depend on all of these: none may change (pair_games
    // keeps games_per_pair fixed, which a standing tournament may raise).
    if (c.schedule == ScheduleType::kLadder) {
        f << " games_per_entrant=" << c.games_per_entrant << " target_error=" << c.target_error
          << " opponents_per_round=" << c.opponents_per_round << " pair_games=" << c.games_per_pair;
    }
    f << " games_per_pair=" << c.games_per_pair << " rounds=" << c.rounds;
    // Only when given, so that configs without a test keep their fingerprint.
    if (c.sprt) {
        f << " sprt: elo0=" << c.sprt->elo0 << " elo1=" << c.sprt->elo1
          << " alpha=" << c.sprt->alpha << " beta=" << c.sprt->beta << " model="
          << (c.sprt->model == rating::SprtModel::logistic ? "logistic" : "normalized");
    }
    f << "\n";
    f << "openings: random_plies=" << c.openings.random_plies;
    // Only when given, so that configs without it keep their fingerprint.
    if (c.openings.same_per_opponent) f << " per_opponent=same";
    if (!c.openings.lines.empty()) {
        f << " file=" << c.openings.file.string() << " lines=" << c.openings.lines.size();
        // Only when given, so that configs without these keys keep their fingerprint.
        if (c.openings.order != OpeningOrder::kSeededStart) {
            f << " order=" << (c.openings.order == OpeningOrder::kRandom ? "random" : "sequential")
              << " start=" << c.openings.start;
        }
        for (const auto& line : c.openings.lines) {
            f << " |";
            for (const auto& m : line)
                f << " " << m;
        }
    }
    f << "\nseed: " << c.seed << "\n";
    // Only for a tune: what decides its path besides the results.
    if (c.tune) {
        const auto& t = *c.tune;
        const auto precision = f.precision(17);  // every double exactly
        f << "tune: pairs=" << t.spsa.iterations << " alpha=" << t.spsa.alpha
          << " gamma=" << t.spsa.gamma << " A=" << (t.spsa.A ? std::to_string(*t.spsa.A) : "-")
          << " batch=" << (t.batch ? std::to_string(*t.batch) : "-") << " command:";
        for (const auto& w : t.argv)
            f << " " << w;
        f << "\n";
        for (const auto& p : t.params) {
            f << "param " << p.name << ": start=" << p.start << " min=" << p.min << " max=" << p.max
              << " c_end=" << p.c_end << " r_end=" << p.r_end << " integer=" << p.integer << "\n";
        }
        f.precision(precision);
    }
    for (const auto& b : c.bots) {
        f << "bot " << b.name << ":";
        for (const auto& w : b.argv)
            f << " " << w;
        const auto& iso = b.isolation;
        const auto& lim = iso.limits;
        f << " (protocol " << b.protocol << ") memory_mb=" << lim.memory_mb
          << " file_size_mb=" << lim.file_size_mb << " open_files=" << lim.open_files
          << " processes=" << lim.processes << " cpu_seconds=" << lim.cpu_seconds
          << " freeze=" << iso.freeze_when_idle << " sandbox=" << iso.sandbox
          << " max_line_bytes=" << b.max_line_bytes;
        if (!b.dir.empty()) f << " dir=" << b.dir.string();
        f << bot_odds_text(c, b) << "\n";
    }
    return f.str();
}

std::string bot_odds_text(const Config& c, const BotConfig& b) {
    std::ostringstream f;
    if (b.time && *b.time != c.time) {
        f << " time: move_ms=" << b.time->move.count()
          << " tolerance_ms=" << b.time->tolerance.count() << " game_ms=" << b.time->game.count()
          << " inc_ms=" << b.time->increment.count();
    }
    if (b.limits.depth) f << " depth=" << *b.limits.depth;
    if (b.limits.nodes) f << " nodes=" << *b.limits.nodes;
    return f.str();
}

std::optional<std::string> fingerprint_difference(const std::string& stored,
                                                  const std::string& current) {
    std::istringstream a(stored), b(current);
    std::string la, lb;
    while (true) {
        const bool ha = static_cast<bool>(std::getline(a, la));
        const bool hb = static_cast<bool>(std::getline(b, lb));
        if (!ha && !hb) return std::nullopt;
        if (!ha) la = "(nothing)";
        if (!hb) lb = "(nothing)";
        if (la != lb) return "was '" + la + "', now '" + lb + "'";
    }
}

namespace {

using DigestContext = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

DigestContext new_digest() {
    DigestContext ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
    if (ctx && EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) ctx.reset();
    return ctx;
}

std::string hex_digest(EVP_MD_CTX* ctx) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest;
    unsigned int len = 0;
    if (EVP_DigestFinal_ex(ctx, digest.data(), &len) != 1) return {};
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    for (unsigned i = 0; i < len; ++i) {
        hex += kHex[digest[i] >> 4];
        hex += kHex[digest[i] & 15];
    }
    return hex;
}

}  // namespace

std::string sha256_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    const auto ctx = new_digest();
    if (!ctx) return {};
    std::array<char, 1 << 16> buf;
    while (in) {
        in.read(buf.data(), buf.size());
        if (in.gcount() > 0)
            EVP_DigestUpdate(ctx.get(), buf.data(), static_cast<std::size_t>(in.gcount()));
    }
    return hex_digest(ctx.get());
}

std::string sha256_text(std::string_view text) {
    const auto ctx = new_digest();
    if (!ctx) return {};
    EVP_DigestUpdate(ctx.get(), text.data(), text.size());
    return hex_digest(ctx.get());
}

}  // namespace arena::tournament
