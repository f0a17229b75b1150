#include "arena/tournament/config_bots.hpp"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "arena/session/command_line.hpp"
#include "arena/tournament/program_files.hpp"
#include "arena/tournament/tsinghua_so.hpp"

namespace arena::tournament {
namespace {

const std::initializer_list<std::string_view> kIsolationKeys = {
    "memory_mb",   "file_size_mb",   "open_files",       "processes",
    "cpu_seconds", "max_line_bytes", "freeze_when_idle", "freeze_grace_ms",
    "sandbox",     "pass_env",       "restart",          "nice",
    "cgroup"};
// (As a table: clang-format would put one key a line.)
// clang-format off
const std::initializer_list<std::string_view> kBotKeys = {
    "name",           "command",          "args",
    "protocol",       "memory_mb",        "file_size_mb",
    "open_files",     "processes",        "cpu_seconds",
    "max_line_bytes", "freeze_when_idle", "freeze_grace_ms",
    "sandbox",        "pass_env",         "restart",
    "nice",           "cgroup",           "dir",
    "workdir",        "library",          "library_dir",
    "time",           "depth",            "nodes"};
// clang-format on
// What `bot_defaults` takes: the isolation keys and the search limits.
const std::initializer_list<std::string_view> kDefaultsKeys = {
    "memory_mb",        "file_size_mb",    "open_files",
    "processes",        "cpu_seconds",     "max_line_bytes",
    "freeze_when_idle", "freeze_grace_ms", "sandbox",
    "pass_env",         "restart",         "nice",
    "cgroup",           "depth",           "nodes"};
// A bot's own `time:`: the tournament's keys of one game's clock.
const std::initializer_list<std::string_view> kBotTimeKeys = {"move_ms", "tolerance_ms", "game_ms",
                                                              "inc_ms"};
// A submission's manifest, <bots_dir>/<folder>/bot.yaml.
constexpr std::string_view kManifestName = "bot.yaml";
const std::initializer_list<std::string_view> kManifestKeys = {"command", "protocol", "name",
                                                               "author", "library"};
using bounds::kMaxCount;
using bounds::kMaxFreezeGraceMs;
using bounds::kMaxLineBytes;
using bounds::kMaxMegabytes;
using bounds::kMaxMillis;
using bounds::kMaxNodes;
using bounds::kMaxPlies;
using bounds::kMinLineBytes;

}  // namespace

std::initializer_list<std::string_view> BotsParser::entry_keys() {
    return kBotKeys;
}

void BotsParser::parse_defaults(const Field& f) {
    require_map(f);
    for (const Field& d : fields_of(f.value, kDefaultsKeys, "'bot_defaults'")) {
        if (d.key == "depth" || d.key == "nodes") {
            parse_limit(d, "bot_defaults: ", defaults_.limits);
            continue;
        }
        parse_isolation_key(d, defaults_);
        if (d.key == "restart") restart_in_defaults_ = true;
        if (d.key == "sandbox") sandbox_in_defaults_ = d.value.Mark();
    }
}

void BotsParser::run_sandboxed(const YAML::Mark& league) {
    league_ = league;
    if (!sandbox_in_defaults_ || defaults_.isolation.sandbox) return;
    const YAML::Mark& mark = *sandbox_in_defaults_;
    config_.warnings.push_back(file_ + ":" + std::to_string(mark.line + 1) + ":" +
                               std::to_string(mark.column + 1) +
                               ": warning: bot_defaults says 'sandbox: false', but under "
                               "'league' the bots of bots_dir (the participants' uploads) always "
                               "run sandboxed; it holds for the bots of 'bots' only");
}

void BotsParser::parse_bots(const Field& f) {
    require_value(f);
    if (!f.value.IsSequence()) {
        fail(f.value.Mark(), "expected a list for 'bots', got " + describe(f.value));
    }
    std::vector<int> name_lines;
    int index = 0;
    for (const YAML::Node& node : f.value) {
        ++index;
        const std::string which = "bot #" + std::to_string(index);
        if (!node.IsMap()) {
            fail(node.Mark(), "expected a map for " + which + ", got " + describe(node));
        }
        const std::vector<Field> fields = fields_of(node, kBotKeys, which);
        if (is_tsinghua_entry(fields)) {
            parse_tsinghua_bots(node, fields, which, name_lines);
            continue;
        }
        const Field* name = find(fields, "name");
        if (name == nullptr) missing(node, "name", which);
        BotConfig bot = defaults_;
        bot.name = bot_name(*name);
        for (std::size_t i = 0; i < config_.bots.size(); ++i) {
            if (config_.bots[i].name == bot.name) {
                fail(name->value.Mark(), "duplicate bot name " + in_quotes(bot.name) +
                                             " (first defined at line " +
                                             std::to_string(name_lines[i]) + ")");
            }
        }
        add_bot(node, fields, std::move(bot));
        name_lines.push_back(name->value.Mark().line + 1);
    }
    name_lines_ = std::move(name_lines);
}

std::string BotsParser::bot_name(const Field& name) const {
    std::string text = string_value(name);
    if (const auto problem = name_length_problem("bot name", text); !problem.empty())
        fail(name.value.Mark(), problem);
    if (!is_valid_name(text)) {
        fail(name.value.Mark(), "bot name " + in_quotes(text) +
                                    " is not valid (use only letters, digits and _ . + -)");
    }
    return text;
}

void BotsParser::add_bot(const YAML::Node& node, const std::vector<Field>& fields, BotConfig bot) {
    const std::string who = "bot " + in_quotes(bot.name) + ": ";
    const Field* command = find(fields, "command");
    if (command == nullptr) missing(node, "command", "bot " + in_quotes(bot.name));
    parse_dir(fields, who, bot);
    const auto executable = parse_command(*command, who, bot);
    if (const Field* args = find(fields, "args")) append_args(*args, bot.argv);
    if (const Field* protocol = find(fields, "protocol")) {
        bot.protocol = string_value(*protocol);
        if (!session::parse_bot_protocol(bot.protocol)) {
            fail(protocol->value.Mark(), who + "unknown protocol " + in_quotes(bot.protocol) +
                                             " (expected " + session::bot_protocol_names() +
                                             ", or 'tsinghua-so' with a 'library')");
        }
        protocol_marks_.emplace_back(config_.bots.size(), protocol->value.Mark());
    }
    parse_bot_settings(node, fields, who, bot);
    bot.executable = executable;
    find_argument_files(*command, who, bot);
    config_.bots.push_back(std::move(bot));
}

// `command`: split into bot.command and bot.argv, and its program found
// from the bot's dir; returns the executable.
std::filesystem::path BotsParser::parse_command(const Field& command, const std::string& who,
                                                BotConfig& bot) const {
    bot.command = string_value(command);
    try {
        bot.argv = session::split_command(bot.command);
    } catch (const std::invalid_argument& e) {
        fail(command.value.Mark(), who + e.what());
    }
    if (bot.argv.front().empty()) fail(command.value.Mark(), who + "empty command");
    {
        const auto [status, executable] = resolve_command(bot.argv.front(), bot.dir);
        const std::string in_dir = bot.dir.empty() ? "" : " in dir " + in_quotes(bot.dir.string());
        if (status == ExecStatus::kNotFound) {
            fail(command.value.Mark(),
                 who + "command " + in_quotes(bot.argv.front()) + " not found" +
                     (bot.argv.front().find('/') == std::string::npos ? " in PATH" : in_dir));
        }
        if (status == ExecStatus::kNotExecutable) {
            std::error_code ec;
            const bool file = std::filesystem::is_regular_file(executable, ec);
            fail(command.value.Mark(),
                 who + "command " + in_quotes(bot.argv.front()) + in_dir + " is not executable" +
                     (file ? " (chmod +x it, or name its interpreter first, e.g. 'python3 " +
                                 bot.argv.front() + "')"
                           : std::string()));
        }
        return executable;
    }
}

void BotsParser::append_args(const Field& f, std::vector<std::string>& argv) const {
    require_value(f);
    if (!f.value.IsSequence()) {
        fail(f.value.Mark(), "expected a list for 'args', got " + describe(f.value));
    }
    for (const YAML::Node& arg : f.value) {
        if (!arg.IsScalar()) {
            fail(arg.Mark(), "expected a string in 'args', got " + describe(arg));
        }
        argv.push_back(arg.Scalar());
    }
}

// `dir` (or its alias `workdir`): where the bot starts, into `bot`.
void BotsParser::parse_dir(const std::vector<Field>& fields, const std::string& who,
                           BotConfig& bot) const {
    const Field* dir = find(fields, "dir");
    const Field* workdir = find(fields, "workdir");
    if (dir != nullptr && workdir != nullptr) {
        fail(workdir->key_node.Mark(),
             who + "give either 'dir' or 'workdir' (the same setting), not both");
    }
    if (dir == nullptr) dir = workdir;
    if (dir == nullptr) return;
    bot.dir = string_value(*dir);
    if (bot.dir.empty()) fail(dir->value.Mark(), who + in_quotes(dir->key) + " is empty");
    std::error_code ec;
    if (!std::filesystem::is_directory(bot.dir, ec)) {
        fail(dir->value.Mark(),
             who + dir->key + " " + in_quotes(dir->value.Scalar()) + " is not a directory");
    }
}

// The arguments that name existing files (from the bot's dir) go into
// bot.files; one that looks like a relative file path but names nothing
// there gets a warning, since the bot will not find it either.
void BotsParser::find_argument_files(const Field& command, const std::string& who, BotConfig& bot) {
    namespace fs = std::filesystem;
    bot.files = argument_files(bot.argv, bot.dir);
    const fs::path base = bot.dir.empty() ? fs::path(".") : bot.dir;
    for (std::size_t i = 1; i < bot.argv.size(); ++i) {
        const std::string& arg = bot.argv[i];
        if (arg.empty() || arg.front() == '-' || !fs::path(arg).is_relative() ||
            !looks_like_file(arg))
            continue;
        std::error_code ec;
        if (fs::exists(base / arg, ec)) continue;
        const YAML::Mark mark = command.value.Mark();
        config_.warnings.push_back(
            file_ + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1) +
            ": warning: " + who + "argument " + in_quotes(arg) + " names no file in " +
            (bot.dir.empty() ? std::string("the current directory") : in_quotes(bot.dir.string())) +
            ", where the bot starts");
    }
}

// A path with a directory part, or a name with a script's or archive's extension.
bool BotsParser::looks_like_file(std::string_view arg) {
    if (arg.find('/') != std::string_view::npos) return true;
    for (const std::string_view ext :
         {".py", ".js", ".mjs", ".jar", ".rb", ".pl", ".sh", ".lua", ".php", ".R", ".class"}) {
        if (arg.size() > ext.size() && arg.ends_with(ext)) return true;
    }
    return false;
}

// The limits and isolation keys of a bot entry, into `bot`.
void BotsParser::parse_bot_settings(const YAML::Node& node, const std::vector<Field>& fields,
                                    const std::string& who, BotConfig& bot) const {
    for (const Field& field : fields) {
        if (std::find(kIsolationKeys.begin(), kIsolationKeys.end(), field.key) !=
            kIsolationKeys.end()) {
            parse_isolation_key(field, bot);
        }
    }
    if (const Field* time = find(fields, "time")) bot.time = parse_bot_time(*time, who);
    for (const char* key : {"depth", "nodes"})
        if (const Field* limit = find(fields, key)) parse_limit(*limit, who, bot.limits);
    if (bot.isolation.sandbox && !sandbox_available_)
        sandbox_available_ = session::sandbox_available();
    if (bot.isolation.sandbox && !*sandbox_available_) {
        fail(node.Mark(), who +
                              "sandbox: true needs bubblewrap ('bwrap'), which is not "
                              "installed or cannot create a sandbox here");
    }
}

// A bot's `time:` over the config's time control (read before the bots,
// wherever it is written): the keys it gives replace the config's. As in the
// config's, a game clock alone (game_ms without move_ms) has no per-move
// limit beyond the clock, unless the config's has a game clock too.
match::TimeControl BotsParser::parse_bot_time(const Field& f, const std::string& who) const {
    require_value(f);
    if (!f.value.IsMap()) {
        fail(f.value.Mark(), who +
                                 "expected a map for 'time' (move_ms, tolerance_ms, game_ms, "
                                 "inc_ms), got " +
                                 describe(f.value));
    }
    const std::string where = "'time' of " + who.substr(0, who.size() - 2);
    match::TimeControl time = config_.time;
    bool move_given = false;
    for (const Field& t : fields_of(f.value, kBotTimeKeys, where)) {
        const match::Millis ms{bot_integer(t, who, 0, kMaxMillis)};
        if (t.key == "move_ms") {
            time.move = ms;
            move_given = true;
        } else if (t.key == "tolerance_ms") {
            time.tolerance = ms;
        } else if (t.key == "game_ms") {
            time.game = ms;
            if (!move_given && config_.time.game.count() == 0) time.move = match::Millis{0};
        } else if (t.key == "inc_ms") {
            time.increment = ms;
        }
    }
    if (const std::string problem = time.validate(); !problem.empty())
        fail(f.value.Mark(), who + "time: " + problem);
    return time;
}

// `depth:` or `nodes:`, a positive integer, into `limits`.
void BotsParser::parse_limit(const Field& f, const std::string& who,
                             match::SearchLimits& limits) const {
    if (f.key == "depth") {
        limits.depth = bot_integer(f, who, 1, kMaxPlies);
    } else {
        limits.nodes = bot_integer(f, who, 1, kMaxNodes);
    }
}

// A decimal integer in [lo, hi]; a problem names the bot (`who`).
std::int64_t BotsParser::bot_integer(const Field& f, const std::string& who, std::int64_t lo,
                                     std::int64_t hi) const {
    require_value(f);
    if (!f.value.IsScalar()) {
        fail(f.value.Mark(),
             who + "expected an integer for " + in_quotes(f.key) + ", got " + describe(f.value));
    }
    try {
        return parse_bounded_integer(f.key, f.value.Scalar(), lo, hi);
    } catch (const std::invalid_argument& e) {
        fail(f.value.Mark(), who + e.what());
    }
}

// One of kIsolationKeys, into `bot`.
void BotsParser::parse_isolation_key(const Field& f, BotConfig& bot) const {
    auto& limits = bot.isolation.limits;
    const auto count = [&](std::int64_t hi) {
        return static_cast<std::uint64_t>(integer(f, 0, hi));
    };
    if (f.key == "memory_mb") {
        limits.memory_mb = count(kMaxMegabytes);
    } else if (f.key == "file_size_mb") {
        limits.file_size_mb = count(kMaxMegabytes);
    } else if (f.key == "open_files") {
        limits.open_files = count(kMaxCount);
    } else if (f.key == "processes") {
        limits.processes = count(kMaxCount);
    } else if (f.key == "cpu_seconds") {
        limits.cpu_seconds = count(kMaxCount);
    } else if (f.key == "nice") {
        limits.nice = static_cast<int>(integer(f, 0, bounds::kMaxNice));
    } else if (f.key == "max_line_bytes") {
        bot.max_line_bytes = static_cast<std::size_t>(integer(f, kMinLineBytes, kMaxLineBytes));
    } else if (f.key == "freeze_when_idle") {
        bot.isolation.freeze_when_idle = boolean(f);
    } else if (f.key == "freeze_grace_ms") {
        bot.isolation.freeze_grace = session::Millis{integer(f, 0, kMaxFreezeGraceMs)};
    } else if (f.key == "sandbox") {
        bot.isolation.sandbox = boolean(f);
    } else if (f.key == "cgroup") {
        bot.isolation.cgroup = boolean(f);
    } else if (f.key == "restart") {
        require_value(f);
        const std::string text = f.value.IsScalar() ? f.value.Scalar() : std::string();
        if (text == "per-game") {
            bot.restart_each_game = true;
        } else if (text == "on-fault") {
            bot.restart_each_game = false;
        } else {
            fail(f.value.Mark(), "expected per-game or on-fault for 'restart', got " +
                                     (f.value.IsScalar() ? in_quotes(text) : describe(f.value)));
        }
    } else if (f.key == "pass_env") {
        require_value(f);
        if (!f.value.IsSequence()) {
            fail(f.value.Mark(),
                 "expected a list of variable names for 'pass_env', got " + describe(f.value));
        }
        bot.isolation.pass_env.clear();
        for (const YAML::Node& name : f.value) {
            if (!name.IsScalar() || name.Scalar().empty() ||
                name.Scalar().find('=') != std::string::npos) {
                fail(name.Mark(), "expected a variable name in 'pass_env', got " + describe(name));
            }
            bot.isolation.pass_env.push_back(name.Scalar());
        }
    }
}

// An entry that names a strategy library, or says protocol: tsinghua-so.
bool BotsParser::is_tsinghua_entry(const std::vector<Field>& fields) {
    const Field* protocol = find(fields, "protocol");
    return find(fields, "library") != nullptr || find(fields, "library_dir") != nullptr ||
           (protocol != nullptr && protocol->value.IsScalar() &&
            protocol->value.Scalar() == kTsinghuaSo);
}

// A bot entry with protocol: tsinghua-so (protocol/TSINGHUA.md), played by
// arena-so-host. `library` names one strategy library and `name` the bot;
// `library_dir` names a directory whose .so files become one bot each,
// named after the file (with `name`, if given, as a prefix: name-file),
// in file name order, so the schedule stays the same from run to run.
void BotsParser::parse_tsinghua_bots(const YAML::Node& node, const std::vector<Field>& fields,
                                     const std::string& which, std::vector<int>& name_lines) {
    const Field* protocol = find(fields, "protocol");
    const Field* library = find(fields, "library");
    const Field* library_dir = find(fields, "library_dir");
    const Field* name = find(fields, "name");
    const std::string label = name != nullptr ? "bot " + in_quotes(string_value(*name)) : which;
    const std::string who = label + ": ";
    if (protocol == nullptr || string_value(*protocol) != kTsinghuaSo) {
        const Field* key = library != nullptr ? library : library_dir;
        fail(key->key_node.Mark(), who + in_quotes(key->key) +
                                       " needs 'protocol: tsinghua-so' (a Tsinghua strategy "
                                       "library)");
    }
    for (const char* key : {"command", "args"}) {
        if (const Field* f = find(fields, key)) {
            fail(f->key_node.Mark(),
                 who + in_quotes(key) +
                     " is not for protocol: tsinghua-so (the arena runs arena-so-host with "
                     "the 'library')");
        }
    }
    if (library != nullptr && library_dir != nullptr) {
        fail(library_dir->key_node.Mark(),
             who + "give either 'library' or 'library_dir', not both");
    }
    if (library == nullptr && library_dir == nullptr) {
        missing(node, "library", label + " (protocol: tsinghua-so plays a strategy library)");
    }
    if (library != nullptr && name == nullptr) missing(node, "name", which);
    BotConfig bot = defaults_;
    bot.protocol = std::string(kTsinghuaSo);
    const auto host = so_host(protocol->value.Mark(), who);
    // (library as written, path, where its bot's name comes from)
    std::vector<std::pair<std::string, std::filesystem::path>> libraries;
    const Field& where = library != nullptr ? *library : *library_dir;
    const std::string text = string_value(where);
    if (text.empty()) fail(where.value.Mark(), who + in_quotes(where.key) + " is empty");
    std::error_code ec;
    if (library != nullptr) {
        if (!std::filesystem::exists(text, ec)) {
            fail(where.value.Mark(), who + "library " + in_quotes(text) + " not found");
        }
        if (!std::filesystem::is_regular_file(text, ec) || ::access(text.c_str(), R_OK) != 0) {
            fail(where.value.Mark(),
                 who + "library " + in_quotes(text) + " is not a readable file");
        }
        libraries.emplace_back(text, text);
    } else {
        if (!std::filesystem::is_directory(text, ec)) {
            fail(where.value.Mark(),
                 who + "library_dir " + in_quotes(text) + " is not a directory");
        }
        for (const auto& path : strategy_libraries(text))
            libraries.emplace_back(path.string(), path);
        if (libraries.empty()) {
            fail(where.value.Mark(),
                 who + "library_dir " + in_quotes(text) + " holds no .so files");
        }
    }
    parse_dir(fields, who, bot);
    parse_bot_settings(node, fields, who, bot);
    // A fresh load of the strategy for every game unless `restart` is
    // written: course strategies keep global state that assumes one game
    // per load (protocol/TSINGHUA.md).
    if (!restart_in_defaults_ && find(fields, "restart") == nullptr) bot.restart_each_game = true;
    tsinghua_marks_.emplace_back(label, protocol->value.Mark());
    for (const auto& [written, path] : libraries) {
        BotConfig b = bot;
        if (library != nullptr) {
            b.name = string_value(*name);
        } else {
            b.name = path.stem().string();
            if (name != nullptr) b.name = string_value(*name) + "-" + b.name;
        }
        const YAML::Mark mark =
            name != nullptr && library != nullptr ? name->value.Mark() : where.value.Mark();
        if (const auto problem = name_length_problem("bot name", b.name); !problem.empty())
            fail(mark, problem);
        if (!is_valid_name(b.name)) {
            fail(mark, "bot name " + in_quotes(b.name) +
                           (library != nullptr ? std::string() : " (from " + written + ")") +
                           " is not valid (use only letters, digits and _ . + -)");
        }
        for (std::size_t i = 0; i < config_.bots.size(); ++i) {
            if (config_.bots[i].name == b.name) {
                fail(mark, "duplicate bot name " + in_quotes(b.name) + " (first defined at line " +
                               std::to_string(name_lines[i]) + ")");
            }
        }
        b.command = written;
        b.argv = so_host_argv(host, path);
        b.executable = path;  // what the results' sha256 identifies: the strategy
        name_lines.push_back(mark.line + 1);
        config_.bots.push_back(std::move(b));
    }
}

// The host that runs strategy libraries, or one error at `mark`.
std::filesystem::path BotsParser::so_host(const YAML::Mark& mark, const std::string& who) const {
    const auto host = find_so_host();
    if (!host) {
        fail(mark, who +
                       "protocol: tsinghua-so needs the arena-so-host executable, which is "
                       "neither next to the arena executable nor in PATH");
    }
    return *host;
}

// `bots_dir`: one bot per subfolder that holds a bot.yaml, in folder name
// order (so the schedule is the same from run to run), after the `bots:`
// list. Each starts in its folder. A subfolder without a manifest gets a
// warning and is skipped. Problems in a manifest name the manifest.
void BotsParser::parse_bots_dir(const Field& f) {
    namespace fs = std::filesystem;
    open_bots_dir(f);
    std::error_code ec;
    std::vector<fs::path> folders;
    if (league_ && !fs::exists(fs::symlink_status(config_.bots_dir, ec))) return;  // none yet
    for (fs::directory_iterator it(config_.bots_dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string leaf = it->path().filename().string();
        if (leaf.empty() || leaf.front() == '.') continue;
        std::error_code dir_ec;
        if (it->is_directory(dir_ec)) folders.push_back(it->path());
    }
    if (ec) {
        fail(f.value.Mark(), "cannot read bots_dir " + in_quotes(config_.bots_dir.string()) + " (" +
                                 ec.message() + ")");
    }
    std::sort(folders.begin(), folders.end());
    const std::size_t listed = config_.bots.size();
    std::vector<std::string> manifests;  // per bot from bots_dir, where its name is written
    for (const fs::path& folder : folders) {
        const fs::path manifest = folder / kManifestName;
        if (!fs::exists(manifest, ec)) {
            config_.warnings.push_back(folder.string() + ": warning: no " +
                                       std::string(kManifestName) +
                                       " in this folder of bots_dir; skipped");
            continue;
        }
        parse_manifest(folder, manifest, listed, manifests);
    }
}

void BotsParser::parse_submission(const Field& bots_dir, const std::filesystem::path& folder,
                                  const std::string& name) {
    open_bots_dir(bots_dir);
    const std::filesystem::path manifest = folder / kManifestName;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(manifest, ec)) {
        throw ConfigError(folder.string() + ": no " + std::string(kManifestName) +
                          " in this folder (a submission is a folder with its bot.yaml)");
    }
    std::vector<std::string> manifests;
    parse_manifest(folder, manifest, config_.bots.size(), manifests, name);
}

// `bots_dir`'s path, checked; and the sandbox its bots run in, when they run
// in one (a league's, or bot_defaults'), checked here, before any of them is
// read and even when there are none yet.
void BotsParser::open_bots_dir(const Field& f) {
    config_.bots_dir = string_value(f);
    if (config_.bots_dir.empty()) fail(f.value.Mark(), "'bots_dir' is empty");
    std::error_code ec;
    // A league's may not be there yet: its server makes it, and until then
    // the league has no submission.
    const bool to_be_made =
        league_ && !std::filesystem::exists(std::filesystem::symlink_status(config_.bots_dir, ec));
    if (!to_be_made && !std::filesystem::is_directory(config_.bots_dir, ec)) {
        fail(f.value.Mark(),
             "bots_dir " + in_quotes(config_.bots_dir.string()) + " is not a directory");
    }
    if (!league_ && !defaults_.isolation.sandbox) return;
    if (!sandbox_available_) sandbox_available_ = session::sandbox_available();
    if (*sandbox_available_) return;
    constexpr std::string_view kNeeds =
        "sandbox: true needs bubblewrap ('bwrap'), which is not installed or cannot create a "
        "sandbox here";
    if (league_) {
        const std::string uploads =
            "under 'league' the bots of bots_dir (the participants' "
            "uploads) run with ";
        fail(*league_, uploads + std::string(kNeeds));
    }
    fail(*sandbox_in_defaults_,
         "bot_defaults: " + std::string(kNeeds) + " (the bots of bots_dir run with it)");
}

void BotsParser::parse_manifest(const std::filesystem::path& folder,
                                const std::filesystem::path& manifest, std::size_t listed,
                                std::vector<std::string>& manifests,
                                const std::string& participant) {
    const std::string config_file = file_;
    file_ = manifest.string();  // what fail() names from here on
    std::ifstream in(manifest, std::ios::binary);
    if (!in) fail(YAML::Mark(), "cannot read the manifest");
    std::ostringstream content;
    content << in.rdbuf();
    YAML::Node root;
    try {
        root = YAML::Load(content.str());
    } catch (const YAML::Exception& e) {
        fail(e.mark, "YAML syntax error: " + e.msg);
    }
    if (!root.IsMap()) {
        fail(root.Mark(), root.IsNull() ? "the manifest is empty (expected 'command: ...')"
                                        : "expected a map (command, protocol, name, author)"
                                          ", got " +
                                              describe(root));
    }
    const std::vector<Field> fields = fields_of(root, kManifestKeys, "");
    BotConfig bot = defaults_;
    if (league_) bot.isolation.sandbox = true;  // an upload, whatever bot_defaults says
    bot.manifest = manifest;
    bot.dir = folder;
    const Field* name = find(fields, "name");
    const YAML::Mark name_mark = name != nullptr ? name->value.Mark() : root.Mark();
    check_manifest_name(fields, participant, name_mark, bot);
    for (std::size_t i = 0; i < config_.bots.size(); ++i) {
        if (config_.bots[i].name != bot.name) continue;
        fail(name_mark,
             "duplicate bot name " + in_quotes(bot.name) + " (first defined " +
                 (i < listed ? "at line " + std::to_string(name_lines_.at(i)) + " of " + config_file
                             : "in " + manifests.at(i - listed)) +
                 ")");
    }
    const std::string who = "bot " + in_quotes(bot.name) + ": ";
    if (const Field* author = find(fields, "author")) bot.author = string_value(*author);
    if (is_tsinghua_entry(fields)) {
        parse_manifest_library(fields, who, bot);
        manifests.push_back(manifest.string() + ":" + std::to_string(name_mark.line + 1));
        config_.bots.push_back(std::move(bot));
        file_ = config_file;
        return;
    }
    const Field* command = find(fields, "command");
    if (command == nullptr) missing(root, "command", "");
    const auto executable = parse_command(*command, who, bot);
    // An upload's program (unless found in PATH) and the paths its
    // arguments name: the sandbox shows the bot what they name.
    for (std::size_t i = 0; league_ && i < bot.argv.size(); ++i) {
        if (bot.argv[i].find('/') != std::string::npos)
            check_own_file(command->value.Mark(), who, bot, bot.argv[i]);
    }
    if (const Field* protocol = find(fields, "protocol")) {
        bot.protocol = string_value(*protocol);
        const auto parsed = session::parse_bot_protocol(bot.protocol);
        if (!parsed) {
            fail(protocol->value.Mark(), who + "unknown protocol " + in_quotes(bot.protocol) +
                                             " (expected " + session::bot_protocol_names() + ")");
        }
        if (!config_.game.empty()) {
            const std::string problem =
                session::protocol_problem(*parsed, config_.game, config_.game_params);
            if (!problem.empty()) fail(protocol->value.Mark(), who + problem);
        }
    }
    bot.executable = executable;
    find_argument_files(*command, who, bot);
    manifests.push_back(manifest.string() + ":" + std::to_string(name_mark.line + 1));
    config_.bots.push_back(std::move(bot));
    file_ = config_file;
}

// The bot's name: the manifest's `name`, else the folder's, or, for a
// submission read alone, the participant's, which a `name` must not change.
void BotsParser::check_manifest_name(const std::vector<Field>& fields,
                                     const std::string& participant, const YAML::Mark& mark,
                                     BotConfig& bot) const {
    const Field* name = find(fields, "name");
    const std::string implied = participant.empty() ? bot.dir.filename().string() : participant;
    bot.name = name != nullptr ? string_value(*name) : implied;
    if (const auto problem = name_length_problem("bot name", bot.name); !problem.empty())
        fail(mark, problem);
    if (!is_valid_name(bot.name)) {
        std::string whose;
        if (name == nullptr) whose = participant.empty() ? " (the folder's name)" : " (given)";
        fail(mark, "bot name " + in_quotes(bot.name) + whose +
                       " is not valid (use only letters, digits and _ . + -" +
                       (participant.empty() ? "; or give 'name')" : ")"));
    }
    if (name != nullptr && !participant.empty() && bot.name != participant) {
        fail(mark, "name " + in_quotes(bot.name) + " is not the participant's, " +
                       in_quotes(participant) +
                       ": a participant's bot is named after them (leave 'name' out)");
    }
}

// A manifest with `protocol: tsinghua-so`: `library` names the strategy
// library, from the submission's folder; arena-so-host plays it, a fresh
// load for every game unless bot_defaults says otherwise.
void BotsParser::parse_manifest_library(const std::vector<Field>& fields, const std::string& who,
                                        BotConfig& bot) const {
    const Field* protocol = find(fields, "protocol");
    const Field* library = find(fields, "library");
    if (protocol == nullptr || string_value(*protocol) != kTsinghuaSo) {
        fail(library->key_node.Mark(),
             who + "'library' needs 'protocol: tsinghua-so' (a Tsinghua strategy library)");
    }
    if (const Field* command = find(fields, "command")) {
        fail(command->key_node.Mark(), who +
                                           "'command' is not for protocol: tsinghua-so (the "
                                           "arena runs arena-so-host with the 'library')");
    }
    if (library == nullptr) {
        fail(protocol->value.Mark(),
             who +
                 "missing 'library' (protocol: tsinghua-so plays a strategy library, e.g. "
                 "'library: strategy.so')");
    }
    if (!config_.game.empty()) {
        const std::string problem = tsinghua_game_problem(config_.game, config_.game_params);
        if (!problem.empty()) fail(protocol->value.Mark(), who + problem);
    }
    const auto host = so_host(protocol->value.Mark(), who);
    const std::string text = string_value(*library);
    if (text.empty()) fail(library->value.Mark(), who + "'library' is empty");
    if (league_) check_own_file(library->value.Mark(), who, bot, text);
    const std::filesystem::path path = (bot.dir / text).lexically_normal();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        fail(library->value.Mark(),
             who + "library " + in_quotes(text) + " not found in " + in_quotes(bot.dir.string()));
    }
    if (!std::filesystem::is_regular_file(path, ec) || ::access(path.c_str(), R_OK) != 0) {
        fail(library->value.Mark(),
             who + "library " + in_quotes(path.string()) + " is not a readable file");
    }
    bot.protocol = std::string(kTsinghuaSo);
    bot.command = path.string();
    bot.argv = so_host_argv(host, path);
    bot.executable = path;  // what the results' sha256 identifies: the strategy
    if (!restart_in_defaults_) bot.restart_each_game = true;
}

// Under a league, a path an upload's manifest names (`path`, from its
// folder) must lie in its folder: the sandbox shows a bot the files its
// command names, and an upload must not name another participant's, the
// results or anything else of the machine.
void BotsParser::check_own_file(const YAML::Mark& mark, const std::string& who,
                                const BotConfig& bot, const std::string& path) const {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path folder = fs::absolute(bot.dir, ec).lexically_normal();
    const fs::path named = fs::absolute(bot.dir / path, ec).lexically_normal();
    const fs::path relative = named.lexically_relative(folder);
    if (!relative.empty() && *relative.begin() != "..") return;
    fail(mark, who + in_quotes(path) +
                   " is outside the bot's folder: under 'league' an upload names only its own "
                   "files, and a program of the system by its name alone (such as 'python3')");
}

// Each bot's protocol can play the game (a gomocup bot plays only gomoku).
void BotsParser::check_protocols() const {
    for (const auto& [index, mark] : protocol_marks_) {
        const BotConfig& bot = config_.bots[index];
        const auto protocol = session::parse_bot_protocol(bot.protocol);
        const std::string problem =
            session::protocol_problem(*protocol, config_.game, config_.game_params);
        if (!problem.empty()) fail(mark, "bot " + in_quotes(bot.name) + ": " + problem);
    }
}

// Tsinghua strategies play Connect-4 only (checked once the game is known,
// whatever the order of the sections).
void BotsParser::check_tsinghua_bots() const {
    if (tsinghua_marks_.empty()) return;
    const std::string problem = tsinghua_game_problem(config_.game, config_.game_params);
    const auto& [label, mark] = tsinghua_marks_.front();
    if (!problem.empty()) fail(mark, label + ": " + problem);
}

}  // namespace arena::tournament
