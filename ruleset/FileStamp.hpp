// Has a file changed since it was read, decided from stat() alone, the way make and git decide.
//
// A stamp is what the kernel reports about a file's contents: device, inode, size, and the
// modification and change times with nanoseconds. Writing a file changes its mtime and ctime;
// replacing it (an editor's save-to-temporary-then-rename, a symlink or folder swapped in)
// changes the inode; restoring an old mtime (touch -d, cp -p, tar, git checkout) still sets ctime
// to the present, and ctime cannot be set by a user at all. So an equal stamp means the bytes are
// those read before, with one exception: a write that lands within the timestamp granularity of
// the read (a coarse clock tick on Linux, ~4 ms; 2 s on FAT) and keeps the size can leave every
// field equal. That is git's "racy clean" problem, and the answer is git's too: a stamp whose
// ctime or mtime is not older than the read by a safety margin (kSettleMargin) is not trusted
// next time; the bytes are read and compared again, and the stamp is trusted once the file has
// stayed unchanged for longer than the margin.
//
// What is left: a clock stepped back by more than the margin between two loads, a network file
// system whose server clock runs behind ours by more than the margin, and a deliberate change of
// the system clock to forge a ctime. The first two are where make and git also fail; the last
// needs root.
#pragma once
#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>

namespace umpire::ruleset {

struct FileStamp {
    std::uint64_t device = 0, inode = 0, size = 0;
    std::int64_t mtime_ns = 0, ctime_ns = 0;  // since the epoch

    bool operator==(const FileStamp&) const = default;
};

// Twice FAT's 2 s timestamp granularity, far above a clock tick: a file saved in the last 4 s is
// compared by its bytes on the next load (what every load did before stamps were kept).
inline constexpr std::chrono::nanoseconds kSettleMargin = std::chrono::seconds(4);

// The stamp in a stat() or lstat() result (of a regular file: then the two agree).
FileStamp stamp_from(const struct stat& st);

// The stamp of file, symlinks followed (the file whose bytes a read returns); none if stat fails.
std::optional<FileStamp> stamp_of(const std::filesystem::path& file);

// The present time of the clock file timestamps are taken from (CLOCK_REALTIME), in ns.
std::int64_t now_ns();

// May an equal stamp stand for equal bytes next time? Only if the file's times were already
// older than the margin when the read began (read_started_ns, taken before the stat): every later
// write then gets a later ctime, however coarse the clock.
bool settled(const FileStamp& stamp, std::int64_t read_started_ns,
             std::chrono::nanoseconds margin = kSettleMargin);

}  // namespace umpire::ruleset
