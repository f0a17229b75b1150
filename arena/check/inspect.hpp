#pragma once
// What a bot's processes read and hold, seen from /proc: which input a bot
// that missed its deadline was waiting for, and whether it holds a terminal
// open. Best effort: where /proc does not tell (another user's process, a
// kernel without the files), the answers are empty.

#include <sys/types.h>

#include <string>
#include <vector>

namespace arena::check::inspect {

// The processes of the process group `group` (a bot's pid is its group).
[[nodiscard]] std::vector<pid_t> group_members(pid_t group);

// When a thread of `pid` waits for input from outside other than its
// standard input: blocked in a read (read, readv, pread, recv...) of a named
// file, FIFO, device or terminal, "reading fd 3 (/tmp/x/fifo)", or of a
// network socket, or in opening a file (a FIFO waits there for a writer),
// "opening /tmp/x/fifo". A pipe or a local socket (to a helper process of
// the bot's own) does not count. "" otherwise.
[[nodiscard]] std::string blocked_input(pid_t pid);

// Whether a thread of `pid` is blocked reading its standard input: it waits
// for the next command.
[[nodiscard]] bool waiting_on_stdin(pid_t pid);

// The descriptors of `pid` that are terminals: "fd 4 (/dev/pts/2)".
[[nodiscard]] std::vector<std::string> terminal_fds(pid_t pid);

}  // namespace arena::check::inspect
