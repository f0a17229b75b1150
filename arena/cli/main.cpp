// `arena`: the command-line entry point (the commands are arena_cli's).

#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "arena/cli/commands.hpp"

namespace {

// SIGXFSZ (a write past RLIMIT_FSIZE) would kill the arena with a core dump;
// caught, the write fails with EFBIG and becomes an error message naming the
// file. A handler, not SIG_IGN: an ignored signal stays ignored across exec
// and bots would inherit that, a caught one is reset to the default.
void on_file_too_large(int) {}

}  // namespace

int main(int argc, char** argv) {
    struct sigaction action {};
    action.sa_handler = on_file_too_large;
    sigemptyset(&action.sa_mask);
    sigaction(SIGXFSZ, &action, nullptr);
    return arena::cli::dispatch(std::vector<std::string>(argv + 1, argv + argc), std::cout,
                                std::cerr);
}
