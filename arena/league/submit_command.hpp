#pragma once
// What `arena submit URL FILE` does and says (docs/league.md, "Uploading
// from a script"): its help, the checks of the URL, the token and the file,
// the upload, and with --wait the polling of the version until its check
// ends. The command line itself is parsed by arena/cli. Everything the
// server sends is escaped before it is printed.

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "arena/league/submit_client.hpp"

namespace arena::league {

// The help of `arena submit`, printed before its options.
[[nodiscard]] std::string_view submit_usage();

// The largest FILE arena submit sends (1 GiB); a larger one is refused
// without being read.
inline constexpr std::uintmax_t kMaxSubmitBytes = std::uintmax_t{1} << 30;

struct SubmitRequest {
    std::string url;
    std::string file;
    std::optional<std::string> name;        // --name; else FILE's base name
    std::optional<std::string> token;       // --token
    std::optional<std::string> token_file;  // --token-file
    std::optional<std::string> env_token;   // ARENA_LEAGUE_TOKEN, when set
    bool wait = false;
    int wait_s = 300;  // with wait: how long to wait for the verdict
    ClientOptions client{};
    std::chrono::milliseconds poll_interval{1000};  // with wait
};

enum class SubmitOutcome {
    kDone,    // accepted (with wait: and passed its check)
    kFailed,  // refused, the check failed or did not end in time, no server
    kUsage,   // a bad URL, token or file
};

// Whether `token` has a league token's form: "<id>.<secret>", the id one to
// 19 digits and the secret 43 characters of base64url.
[[nodiscard]] bool is_league_token(std::string_view token);

// Reads the regular file `path` into `bytes` when it holds at most
// `max_bytes`; else returns the problem ("No such file or directory", "it is
// a folder: ..."), and a larger file is not read.
[[nodiscard]] std::string read_submit_file(const std::string& path, std::uintmax_t max_bytes,
                                           std::string& bytes);

// Does what `request` asks: prints on `out` what the server accepted and,
// with wait, the verdict (and the check's log when it failed); on `err`
// every problem, beginning "arena submit: ".
[[nodiscard]] SubmitOutcome submit(const SubmitRequest& request, std::ostream& out,
                                   std::ostream& err);

}  // namespace arena::league
