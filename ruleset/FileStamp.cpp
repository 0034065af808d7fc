#include "ruleset/FileStamp.hpp"

#include <algorithm>
#include <ctime>

namespace umpire::ruleset {

namespace {
std::int64_t ns(const timespec& t) { return std::int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec; }
}  // namespace

std::optional<FileStamp> stamp_of(const std::filesystem::path& file) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0) return std::nullopt;
    return stamp_from(st);
}

FileStamp stamp_from(const struct stat& st) {
    FileStamp s;
    s.device = st.st_dev;
    s.inode = st.st_ino;
    s.size = static_cast<std::uint64_t>(st.st_size);
    s.mtime_ns = ns(st.st_mtim);
    s.ctime_ns = ns(st.st_ctim);
    return s;
}

std::int64_t now_ns() {
    timespec t{};
    ::clock_gettime(CLOCK_REALTIME, &t);
    return ns(t);
}

bool settled(const FileStamp& stamp, std::int64_t read_started_ns, std::chrono::nanoseconds margin) {
    return std::max(stamp.mtime_ns, stamp.ctime_ns) + margin.count() < read_started_ns;
}

}  // namespace umpire::ruleset
