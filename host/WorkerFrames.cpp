#include "host/WorkerFrames.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <climits>

namespace umpire::isolation {
namespace {

iovec part(std::string_view text) { return {const_cast<char*>(text.data()), text.size()}; }

}  // namespace

// Writes `parts` in order, as one stream. False if the other end is gone. On a socket (the fork
// server's) with MSG_NOSIGNAL, so a fork server that died is an error for the caller rather than
// a SIGPIPE that ends the whole server. Gathered (sendmsg, writev) so that no caller copies a
// large payload into one buffer first: the worker's state text for --save-state or watch was
// copied twice more that way, outside the memory cap.
bool write_all(int fd, std::vector<iovec> parts) {
    bool socket = true;
    std::size_t first = 0;
    const auto skip_written = [&](std::size_t written) {
        while (first < parts.size() && written >= parts[first].iov_len) written -= parts[first++].iov_len;
        if (first < parts.size()) {
            parts[first].iov_base = static_cast<char*>(parts[first].iov_base) + written;
            parts[first].iov_len -= written;
        }
    };
    skip_written(0);  // empty parts
    while (first < parts.size()) {
        const auto count = static_cast<int>(std::min<std::size_t>(parts.size() - first, IOV_MAX));
        ssize_t n;
        if (socket) {
            msghdr message{};
            message.msg_iov = parts.data() + first;
            message.msg_iovlen = static_cast<std::size_t>(count);
            n = ::sendmsg(fd, &message, MSG_NOSIGNAL);
        } else {
            n = ::writev(fd, parts.data() + first, count);
        }
        if (n < 0 && socket && errno == ENOTSOCK) {
            socket = false;
            continue;
        }
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        skip_written(static_cast<std::size_t>(n));
    }
    return true;
}

// One frame: [topic length][payload length][topic][payload], lengths as 4-byte host-order
// integers; the payload is the concatenation of `payload`.
bool write_frame(int fd, std::string_view topic, const std::string_view* payload, std::size_t count) {
    char lengths[8];
    const auto topic_size = static_cast<std::uint32_t>(topic.size());
    std::size_t total = 0;
    for (std::size_t i = 0; i < count; ++i) total += payload[i].size();
    const auto payload_size = static_cast<std::uint32_t>(total);
    std::memcpy(lengths, &topic_size, 4);
    std::memcpy(lengths + 4, &payload_size, 4);
    std::vector<iovec> parts{part({lengths, sizeof lengths}), part(topic)};
    for (std::size_t i = 0; i < count; ++i) parts.push_back(part(payload[i]));
    return write_all(fd, std::move(parts));
}

bool write_frame(int fd, std::string_view topic, std::initializer_list<std::string_view> payload) {
    return write_frame(fd, topic, payload.begin(), payload.size());
}

bool write_frame(int fd, const std::string& topic, const std::string& payload) {
    return write_frame(fd, std::string_view(topic), {std::string_view(payload)});
}

}  // namespace umpire::isolation
