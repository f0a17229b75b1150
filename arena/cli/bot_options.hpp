#pragma once
// The options of how the bots of `arena match`, `play` and `check-bot` run
// (resource limits, freezing, the sandbox, the environment, the start-up
// limit, line length). A bot argument itself is read by
// tournament/bot_argument.hpp.

#include <boost/program_options.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "arena/session/session.hpp"

namespace arena::cli {

// An integer option checked against [lo, hi] (the bounds of
// tournament::bounds, as configs are) and stored into `store` when the
// options are notified; a value out of range or not an integer makes
// po::notify throw std::invalid_argument with the message a config gets:
// "--move-ms must be at most 1000000000, got 10000000000000". Read as text,
// so that "-1" for a count is refused rather than wrapped around.
// With no `default_value`, `store` is called only when the option is given.
[[nodiscard]] boost::program_options::typed_value<std::string>* bounded_integer(
    const std::string& option, std::int64_t lo, std::int64_t hi,
    std::optional<std::int64_t> default_value, std::function<void(std::int64_t)> store);

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

}  // namespace arena::cli
