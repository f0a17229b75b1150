#pragma once
// The new file of a merge into an OUT.db that does not exist yet (see
// merge.hpp), internal to the store.

#include <filesystem>
#include <string>

namespace arena::store {

// A merge into an OUT.db that does not exist yet writes a new file next to
// it, `OUT.db.merging`, and gives it the name OUT.db only once it is whole
// (fsynced, then linked to its name). So the new file needs no journal on
// disk and no fsync of its own: a merge killed at any point, or a machine
// that loses power, leaves no OUT.db at all (and a `.merging` file that the
// next merge starts afresh), never a half-written one. The `.merging` file is
// locked (flock) while it is written: two merges into the same new OUT.db
// cannot share it.
class NewOutput {
  public:
    // Creates and locks `OUT.db.merging`, emptied of what a merge that was
    // killed left. Throws MergeError when another merge is writing it.
    explicit NewOutput(std::filesystem::path out);
    // Removes the file unless it was published.
    ~NewOutput();
    NewOutput(const NewOutput&) = delete;
    NewOutput& operator=(const NewOutput&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

    // Once every connection to the file is closed: makes it durable and
    // names it OUT.db. False when an OUT.db appeared meanwhile (another
    // merge, a run): the file is then left for the caller to merge into it.
    [[nodiscard]] bool publish();

  private:
    [[noreturn]] static void fail(const std::string& what);

    std::filesystem::path out_, path_;
    int fd_ = -1;
};

}  // namespace arena::store
