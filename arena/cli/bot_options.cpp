#include "arena/cli/bot_options.hpp"

#include <boost/program_options.hpp>
#include <stdexcept>
#include <vector>

#include "arena/tournament/config.hpp"

namespace arena::cli {

namespace po = boost::program_options;

using tournament::bounds::kMaxCount;
using tournament::bounds::kMaxMegabytes;
using tournament::bounds::kMaxMillis;

po::typed_value<std::string>* bounded_integer(const std::string& option, std::int64_t lo,
                                              std::int64_t hi,
                                              std::optional<std::int64_t> default_value,
                                              std::function<void(std::int64_t)> store) {
    const std::string name = "--" + option;
    auto* value = po::value<std::string>();
    if (default_value) value->default_value(std::to_string(*default_value));
    return value->notifier([name, lo, hi, store = std::move(store)](const std::string& text) {
        store(tournament::parse_bounded_integer(name, text, lo, hi));
    });
}

void BotRunOptions::add_startup_options(po::options_description& opts) {
    // clang-format off
    opts.add_options()
        ("startup-ms", bounded_integer("startup-ms", 1, kMaxMillis, &startup_ms_), "limit for the start-up handshake")
        ("no-realtime", po::bool_switch(&no_realtime_), "never judge at real-time priority (default: the last 20 ms before a deadline, when allowed)");
    // clang-format on
}

void BotRunOptions::add_limit_options(po::options_description& opts) {
    session::Limits& limits = isolation_.limits;
    // clang-format off
    opts.add_options()
        ("memory-mb", bounded_integer("memory-mb", 0, kMaxMegabytes, &limits.memory_mb), "address-space limit of each bot process in MiB (0: none)")
        ("file-size-mb", bounded_integer("file-size-mb", 0, kMaxMegabytes, &limits.file_size_mb), "largest file a bot may write, MiB (0: none)")
        ("open-files", bounded_integer("open-files", 0, kMaxCount, &limits.open_files), "open file descriptors per bot process (0: inherit)")
        ("processes", bounded_integer("processes", 0, kMaxCount, &limits.processes), "processes + threads per bot (0: none)")
        ("cpu-seconds", bounded_integer("cpu-seconds", 0, kMaxCount, &limits.cpu_seconds), "CPU time of each bot process, seconds (0: none)")
        ("nice", bounded_integer("nice", 0, tournament::bounds::kMaxNice, &limits.nice), "scheduling niceness of the bots, 0..19")
        ("max-line-bytes", bounded_integer("max-line-bytes", tournament::bounds::kMinLineBytes, tournament::bounds::kMaxLineBytes, &max_line_bytes_), "longest line a bot may send")
        ("no-freeze", po::bool_switch(&no_freeze_), "let bots run while not on move (default: SIGSTOP them)")
        ("freeze-grace-ms", bounded_integer("freeze-grace-ms", 0, tournament::bounds::kMaxFreezeGraceMs, &freeze_grace_ms_), "how long a bot may run on after its move before it is stopped (0: at once)")
        ("sandbox", po::bool_switch(&isolation_.sandbox), "run the bots under bubblewrap (docs/security.md)")
        ("pass-env", po::value<std::vector<std::string>>(&isolation_.pass_env)->composing(), "pass this environment variable on to the bots (repeatable)");
    // clang-format on
}

void BotRunOptions::apply(session::Isolation& isolation, session::SessionOptions& session) const {
    // The numbers were checked against their bounds when the options were notified.
    if (isolation_.sandbox && !session::sandbox_available()) {
        throw std::invalid_argument(
            "--sandbox needs bubblewrap ('bwrap'), which is not installed or cannot create a "
            "sandbox here");
    }
    session.startup_limit = session::Millis{startup_ms_};
    session.realtime_deadlines = !no_realtime_;
    session.max_line_bytes = max_line_bytes_;
    isolation = isolation_;
    isolation.freeze_when_idle = !no_freeze_;
    isolation.freeze_grace = session::Millis{freeze_grace_ms_};
}

}  // namespace arena::cli
