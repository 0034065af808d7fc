// One bounded read of a regular file through one descriptor: what every read of a file a stranger
// may have made goes through where the kind of file matters (the loader's manifests, data files,
// modules and scenarios, ruleset/LoadCache.cpp; a replayed journal, cli/cmd_replay.cpp).
//
// Why one descriptor. A read by path after a check of the path (a stat, the manifest's check that
// a file is inside its ruleset folder) is two steps, and the file can be swapped in between: for
// a FIFO, which blocks a reader for ever; for a symlink leading out of the folder. So the file is
// opened once (O_NONBLOCK: opening a FIFO does not wait for a writer), and everything is asked of
// that descriptor: fstat for its kind and size, /proc/self/fd for where it leads (when the caller
// knows where it should), then the bytes. The read is bounded as it goes, so a file that grows
// while read stops at the cap too.
#pragma once
#include <sys/stat.h>

#include <cstddef>
#include <filesystem>
#include <string>

namespace umpire::regular_file {

struct Read {
    enum class Status {
        read,         // bytes hold the whole file
        cannot_open,  // open or fstat failed: `error` is errno
        not_regular,  // a folder, a FIFO, a device... (`st` says which: kind_of)
        elsewhere,    // the descriptor leads to `leads_to`, not to the path the caller checked
        too_big,      // over max_bytes (by its size, or grown past it while read)
        read_error,   // read failed: `error` is errno
    };
    Status status = Status::cannot_open;
    std::string bytes;
    struct stat st {};  // of the descriptor read (its stamp: taken before its bytes)
    int error = 0;
    // Status::elsewhere: where the descriptor leads, or "" when /proc/self/fd could not tell
    // (then `error` is its errno).
    std::string leads_to;
};

// Reads `file` (at most max_bytes). `checked`, if not empty, is the canonical path the caller's
// check found the file at: a descriptor leading anywhere else is not read (Status::elsewhere).
// Never throws for the file's sake (std::bad_alloc aside): the caller phrases each refusal.
Read read(const std::filesystem::path& file, std::size_t max_bytes, const std::string& checked = {});

// "a folder", "a FIFO", "a device", "a socket" or "no regular file", for a refusal's text.
const char* kind_of(const struct stat& st);

}  // namespace umpire::regular_file
