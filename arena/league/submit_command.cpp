#include "arena/league/submit_command.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <ostream>
#include <system_error>
#include <thread>
#include <utility>

#include "arena/record/escape.hpp"

namespace arena::league {
namespace {

using record::escape_controls;

constexpr std::string_view kUsage =
    R"(usage: arena submit URL FILE [--token-file F | --token T] [--wait] [--wait-s S] [--name NAME]

Uploads FILE as the next version of your bot to the league server at URL
(arena serve --league; the address the organiser gives, such as
http://127.0.0.1:8080 or http://host:8080/league). FILE is a script, an
executable, a Tsinghua .so, or a .tar.gz or .zip holding bot.yaml
(docs/league.md, "What an upload may be"), at most 1 GiB; the server has its
own, smaller cap. The server checks each upload in the background: --wait
waits for the verdict and prints the check's log when it failed.

The token is yours, as arena league user add printed it (<id>.<43
characters>): from --token-file, --token, or else the environment variable
ARENA_LEAGUE_TOKEN. Prefer the file or the variable: a token on the command
line is seen by anyone on the machine who runs ps.

arena submit speaks plain HTTP only; for an https server, docs/league.md
gives the curl command that does the same.

Exit status: 0 accepted (with --wait: accepted, and passed its check); 1
refused, the check failed or did not end in time, or no server answered; 2 a
bad command line, URL, token or FILE.

)";

constexpr std::size_t kMaxTokenFile = 4096;

// Closes a file descriptor when it goes.
class Fd {
  public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    [[nodiscard]] int get() const { return fd_; }

  private:
    int fd_;
};

std::string errno_text() {
    return std::generic_category().message(errno);
}

// "1 GiB", "4 KiB", "100 bytes".
std::string size_text(std::uintmax_t bytes) {
    for (const auto& [unit, name] : {std::pair<std::uintmax_t, const char*>{1u << 30, "GiB"},
                                     {1u << 20, "MiB"},
                                     {1u << 10, "KiB"}}) {
        if (bytes >= unit && bytes % unit == 0) return std::to_string(bytes / unit) + " " + name;
    }
    return std::to_string(bytes) + " bytes";
}

std::string trimmed(std::string_view text) {
    constexpr std::string_view kSpace = " \t\r\n";
    const auto first = text.find_first_not_of(kSpace);
    if (first == std::string_view::npos) return "";
    return std::string(text.substr(first, text.find_last_not_of(kSpace) - first + 1));
}

struct Token {
    std::string value;
    std::string problem;  // non-empty: the token could not be had
};

// The token, from --token-file, --token or ARENA_LEAGUE_TOKEN, in that order.
Token find_token(const SubmitRequest& request) {
    std::string value;
    std::string from;
    if (request.token_file) {
        from = "the token in --token-file '" + escape_controls(*request.token_file) + "'";
        std::string text;
        if (auto problem = read_submit_file(*request.token_file, kMaxTokenFile, text);
            !problem.empty())
            return {"", "--token-file '" + escape_controls(*request.token_file) + "': " + problem};
        value = trimmed(text);
    } else if (request.token) {
        from = "the token of --token";
        value = trimmed(*request.token);
    } else if (request.env_token && !request.env_token->empty()) {
        from = "the token in ARENA_LEAGUE_TOKEN";
        value = trimmed(*request.env_token);
    } else {
        return {"",
                "no token: give yours with --token-file F, in the environment variable "
                "ARENA_LEAGUE_TOKEN, or with --token T (which ps shows to others)"};
    }
    if (!is_league_token(value))  // never printed: it may be a secret all the same
        return {"", from +
                        " is not a league token: expected <id>.<43 characters>, as arena "
                        "league user add printed it"};
    return {value, ""};
}

// " (...)": what a refusal's status suggests.
std::string hint(const LeagueReply& reply) {
    const std::string retry =
        reply.retry_after.empty()
            ? ""
            : "; the server asks to wait " + escape_controls(reply.retry_after) + " s";
    switch (reply.status) {
        case 401:
            return " (is the token this league's, and still valid? an organiser's arena league "
                   "user reset makes a new one)";
        case 404:
            return " (is the URL the league server's address? arena serve --league serves it)";
        case 429:
            return " (too many uploads: try again later" + retry + ")";
        case 502:
        case 503:
        case 504:
            return " (the server is busy: try again later" + retry + ")";
        default:
            return retry.empty() ? "" : " (" + retry.substr(2) + ")";
    }
}

// "HTTP 422: upload 'bot.zip': ...": a refusal, escaped.
std::string refusal(const LeagueReply& reply) {
    std::string text = "HTTP " + std::to_string(reply.status);
    text += reply.error.empty() ? " with no reason given" : ": " + escape_controls(reply.error);
    return text + hint(reply);
}

bool worth_retrying(const LeagueReply& reply) {
    return !reply.answered() || reply.status == 429 || reply.status == 502 || reply.status == 503 ||
           reply.status == 504;
}

// Prints the verdict of a check that ended.
SubmitOutcome verdict(const LeagueReply& reply, long long n, std::ostream& out) {
    const std::string what = "version " + std::to_string(n) +
                             (reply.file.empty() ? "" : " (" + escape_controls(reply.file) + ")");
    const std::string message = reply.message.empty() ? "" : ": " + escape_controls(reply.message);
    if (reply.state == "passed") {
        out << "arena submit: " << what << " passed its check" << message << "\n";
        return SubmitOutcome::kDone;
    }
    out << "arena submit: " << what << " failed its check" << message << "\n";
    if (!reply.log.empty()) {
        std::string log = escape_controls(reply.log, /*keep_layout=*/true);
        if (!log.ends_with('\n')) log += '\n';
        out << "the check's log:\n" << log;
    }
    return SubmitOutcome::kFailed;
}

// Asks for version `n` every poll interval until its check ends or
// request.wait_s pass; a server that is busy or out of reach is asked again.
SubmitOutcome wait_for_check(const ServerUrl& url, const std::string& token, long long n,
                             const SubmitRequest& request, std::ostream& out, std::ostream& err) {
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::seconds(request.wait_s);
    err << "arena submit: waiting for the check of version " << n << " (at most " << request.wait_s
        << " s)\n";
    std::string last;  // what the last answer said
    for (;;) {
        ClientOptions options = request.client;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        options.read_timeout =
            std::min(options.read_timeout, std::max(left, std::chrono::milliseconds(1000)));
        const LeagueReply reply = version(url, token, n, options);
        if (reply.success() && (reply.state == "passed" || reply.state == "failed"))
            return verdict(reply, n, out);
        if (reply.answered() && !reply.success() && !worth_retrying(reply)) {
            err << "arena submit: asking " << escape_controls(url.text()) << " about version " << n
                << ": " << refusal(reply) << "\n";
            return SubmitOutcome::kFailed;
        }
        last = !reply.answered() ? escape_controls(reply.problem)
               : reply.success() ? "its status is '" + escape_controls(reply.state) + "'"
                                 : refusal(reply);
        const auto now = Clock::now();
        if (now >= deadline) break;
        std::this_thread::sleep_for(
            std::min<Clock::duration>(request.poll_interval, deadline - now));
    }
    err << "arena submit: version " << n << " has no verdict after " << request.wait_s << " s ("
        << last << ")\n";
    return SubmitOutcome::kFailed;
}

}  // namespace

std::string_view submit_usage() {
    return kUsage;
}

bool is_league_token(std::string_view token) {
    const auto dot = token.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot > 19) return false;
    const std::string_view id = token.substr(0, dot), secret = token.substr(dot + 1);
    const auto base64url = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '-' || c == '_';
    };
    return std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
           secret.size() == 43 && std::all_of(secret.begin(), secret.end(), base64url);
}

std::string read_submit_file(const std::string& path, std::uintmax_t max_bytes,
                             std::string& bytes) {
    // O_NONBLOCK: a FIFO is refused below, not waited on.
    const Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
    if (fd.get() < 0) return errno_text();
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) return errno_text();
    if (S_ISDIR(st.st_mode))
        return "it is a folder: send one file, such as a .tar.gz or .zip of the folder with its "
               "bot.yaml";
    if (!S_ISREG(st.st_mode)) return "it is not a regular file";
    const auto size = static_cast<std::uintmax_t>(st.st_size);
    if (size > max_bytes)
        return "it holds " + std::to_string(size) + " bytes, more than the " +
               size_text(max_bytes) + " arena submit takes";
    bytes.assign(size, '\0');
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno_text();
        if (n == 0) break;  // it shrank while it was read
        done += static_cast<std::size_t>(n);
    }
    bytes.resize(done);
    return "";
}

SubmitOutcome submit(const SubmitRequest& request, std::ostream& out, std::ostream& err) {
    const UrlParse parsed = parse_server_url(request.url);
    if (!parsed.url) {
        err << "arena submit: URL '" << escape_controls(request.url) << "': " << parsed.problem
            << "\n";
        return SubmitOutcome::kUsage;
    }
    const ServerUrl& url = *parsed.url;
    const Token token = find_token(request);
    if (!token.problem.empty()) {
        err << "arena submit: " << token.problem << "\n";
        return SubmitOutcome::kUsage;
    }
    std::string bytes;
    if (auto problem = read_submit_file(request.file, kMaxSubmitBytes, bytes); !problem.empty()) {
        err << "arena submit: FILE '" << escape_controls(request.file) << "': " << problem << "\n";
        return SubmitOutcome::kUsage;
    }
    const std::string name =
        request.name ? *request.name : std::filesystem::path(request.file).filename().string();
    if (name.empty()) {
        err << "arena submit: --name is empty: the server needs the upload's name\n";
        return SubmitOutcome::kUsage;
    }
    const std::string shown = escape_controls(name);

    const LeagueReply reply = upload(url, token.value, name, bytes, request.client);
    if (!reply.answered()) {
        err << "arena submit: could not upload " << shown << " to " << escape_controls(url.text())
            << ": " << escape_controls(reply.problem) << "\n";
        return SubmitOutcome::kFailed;
    }
    if (!reply.success()) {
        err << "arena submit: " << escape_controls(url.text()) << " refused " << shown << ": "
            << refusal(reply) << "\n";
        return SubmitOutcome::kFailed;
    }
    if (!reply.version) {
        err << "arena submit: " << escape_controls(url.text()) << " answered HTTP " << reply.status
            << " to the upload of " << shown
            << " without a version number: is it a league server?\n";
        return SubmitOutcome::kFailed;
    }
    out << "arena submit: accepted " << shown << " as version " << *reply.version
        << " of your bot; "
        << (reply.state == "checking" || reply.state.empty()
                ? "it is being checked"
                : "its status is '" + escape_controls(reply.state) + "'")
        << "\n";
    if (!reply.message.empty()) out << "  " << escape_controls(reply.message) << "\n";
    if (!request.wait) return SubmitOutcome::kDone;
    return wait_for_check(url, token.value, *reply.version, request, out, err);
}

}  // namespace arena::league
