#pragma once
// The subcommands of the `arena` executable. Each takes its own arguments
// (without the subcommand word) and the streams to print to, and returns
// the process exit code.

#include <exception>
#include <iosfwd>
#include <string>
#include <vector>

namespace boost::program_options {
class options_description;
}

namespace arena::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // could not do what was asked (a bot cannot start, ...)
inline constexpr int kExitUsage = 2;    // bad arguments or configuration

// The whole command line after `arena` (the command word first), as the
// executable runs it: what `arena` prints goes to `out` and `err`, and the
// exit status is returned. Tests call it in-process.
int dispatch(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);

int match_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int tune_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int standings_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int games_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int show_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int log_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int rate_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int export_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int sprt_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int report_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int serve_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int play_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int check_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int grade_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int merge_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int slurm_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int upgrade_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int league_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int submit_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace arena::cli
