#pragma once

// The frames a worker process writes to its parent (and the fork server to its client): each
// [topic length][payload length][topic][payload], lengths as 4-byte host-order integers
// (host/Isolation.cpp). Apart so that tests/libfuzzer/frames_fuzzer.cpp can drive the gathered
// writes and the reader on their own.

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace umpire::isolation {

/// Writes `parts` in order, as one stream, however many there are and however the kernel splits
/// them. False if the other end is gone.
bool write_all(int fd, std::vector<iovec> parts);

/// Writes one frame whose payload is the concatenation of `payload`, without copying it.
bool write_frame(int fd, std::string_view topic, const std::string_view* payload, std::size_t count);
bool write_frame(int fd, std::string_view topic, std::initializer_list<std::string_view> payload);
bool write_frame(int fd, const std::string& topic, const std::string& payload);

// Reads the frames the worker wrote: [topic length][payload length][topic][payload], lengths as
// 4-byte host-order integers.
struct FrameReader {
    std::string buffer;
    template <class Handle>
    void take(const char* data, std::size_t size, Handle&& handle) {
        buffer.append(data, size);
        std::size_t at = 0;
        while (buffer.size() - at >= 8) {
            std::uint32_t topic_size, payload_size;
            std::memcpy(&topic_size, buffer.data() + at, 4);
            std::memcpy(&payload_size, buffer.data() + at + 4, 4);
            const std::size_t whole = 8 + std::size_t{topic_size} + payload_size;
            if (buffer.size() - at < whole) break;
            handle(buffer.substr(at + 8, topic_size), buffer.substr(at + 8 + topic_size, payload_size));
            at += whole;
        }
        buffer.erase(0, at);
    }
};

}  // namespace umpire::isolation
