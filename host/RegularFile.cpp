#include "host/RegularFile.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>

namespace umpire::regular_file {

Read read(const std::filesystem::path& file, std::size_t max_bytes, const std::string& checked) {
    Read out;
    struct Descriptor {
        int fd;
        ~Descriptor() {
            if (fd >= 0) ::close(fd);
        }
    } opened{::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
    if (opened.fd < 0 || ::fstat(opened.fd, &out.st) != 0) {
        out.error = errno;
        return out;
    }
    if (!checked.empty()) {
        std::error_code ec;
        const auto real = std::filesystem::read_symlink("/proc/self/fd/" + std::to_string(opened.fd), ec);
        if (ec || real.native() != checked) {
            out.status = Read::Status::elsewhere;
            if (ec) out.error = ec.value();
            else out.leads_to = real.native();
            return out;
        }
    }
    if (!S_ISREG(out.st.st_mode)) {
        out.status = Read::Status::not_regular;
        return out;
    }
    out.status = Read::Status::too_big;
    if (static_cast<std::uint64_t>(out.st.st_size) > max_bytes) return out;
    // One byte more than the size asked for, so that a file that grew is read to its end too.
    std::string& bytes = out.bytes;
    std::size_t size = 0;
    bytes.resize(static_cast<std::size_t>(out.st.st_size) + 1);
    for (;;) {
        if (size == bytes.size()) {
            if (bytes.size() > max_bytes) return out;
            // (to one byte past the cap at most: enough to tell that the file grew past it)
            bytes.resize(std::min(bytes.size() * 2, max_bytes < SIZE_MAX ? max_bytes + 1 : SIZE_MAX));
        }
        const ssize_t got = ::read(opened.fd, bytes.data() + size, bytes.size() - size);
        if (got < 0) {
            if (errno == EINTR) continue;
            out.error = errno;
            out.status = Read::Status::read_error;
            return out;
        }
        if (got == 0) break;
        size += static_cast<std::size_t>(got);
    }
    if (size > max_bytes) return out;
    bytes.resize(size);
    out.status = Read::Status::read;
    return out;
}

const char* kind_of(const struct stat& st) {
    if (S_ISDIR(st.st_mode)) return "a folder";
    if (S_ISFIFO(st.st_mode)) return "a FIFO";
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "a device";
    if (S_ISSOCK(st.st_mode)) return "a socket";
    return "no regular file";
}

}  // namespace umpire::regular_file
