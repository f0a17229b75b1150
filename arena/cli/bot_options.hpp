#pragma once
// What `arena match` and `arena check-bot` share about the bots they start:
// a bot argument ("[name=]command [args...]", or a strategy library), its
// protocol, its directory, and the options of how it runs (resource limits,
// freezing, the sandbox, the environment, the start-up limit, line length).

#include <boost/program_options.hpp>
#include <cstdint>
#include <functional>
#include <string>

#include "arena/session/session.hpp"

namespace arena::cli {

// An integer option checked against [lo, hi] (the bounds of
// tournament::bounds, as configs are) and stored into `store` when the
// options are notified; a value out of range or not an integer makes
// po::notify throw std::invalid_argument with the message a config gets:
// "--move-ms must be at most 1000000000, got 10000000000000". Read as text,
// so that "-1" for a count is refused rather than wrapped around.
[[nodiscard]] boost::program_options::typed_value<std::string>* bounded_integer(
    const std::string& option, std::int64_t lo, std::int64_t hi, std::int64_t default_value,
    std::function<void(std::int64_t)> store);

// The same into a variable of any integer type.
template <class T>
[[nodiscard]] boost::program_options::typed_value<std::string>* bounded_integer(
    const std::string& option, std::int64_t lo, std::int64_t hi, T* target) {
    return bounded_integer(option, lo, hi, static_cast<std::int64_t>(*target),
                           [target](std::int64_t value) { *target = static_cast<T>(value); });
}

// The options of how bots run, registered on a command's options and then
// applied to the bots' isolation and session options.
class BotRunOptions {
  public:
    // --startup-ms and --no-realtime.
    void add_startup_options(boost::program_options::options_description& opts);
    // --memory-mb, --file-size-mb, --open-files, --processes, --cpu-seconds,
    // --nice, --max-line-bytes, --no-freeze, --freeze-grace-ms, --sandbox and
    // --pass-env.
    void add_limit_options(boost::program_options::options_description& opts);
    // Checks the values given and writes them into `isolation` and
    // `session`. Throws std::invalid_argument naming the option.
    void apply(session::Isolation& isolation, session::SessionOptions& session) const;

  private:
    session::Isolation isolation_;
    std::int64_t startup_ms_ = 10'000;
    bool no_realtime_ = false;
    std::uint64_t max_line_bytes_ = session::SessionOptions{}.max_line_bytes;
    bool no_freeze_ = false;
    std::int64_t freeze_grace_ms_ = session::Isolation{}.freeze_grace.count();
};

// "[name=]command [args...]" -> BotSpec, the command split like a shell
// splits words. The name defaults to the command's file name. A command that
// is one path ending in .so is a Tsinghua strategy library, played through
// arena-so-host and named after the file. Throws std::invalid_argument.
[[nodiscard]] session::BotSpec parse_bot_argument(const std::string& arg);

// Makes `spec`, whose argv is one path, play that Tsinghua strategy library
// through arena-so-host (protocol/TSINGHUA.md). Done already: nothing to do.
// Throws std::invalid_argument.
void play_strategy_library(session::BotSpec& spec);

// Makes `spec` speak `protocol`: "arena1", "gomocup", "nboard", or
// "tsinghua-so" (a strategy library through arena-so-host). Throws
// std::invalid_argument for an unknown name.
void set_bot_protocol(session::BotSpec& spec, const std::string& protocol);

}  // namespace arena::cli
