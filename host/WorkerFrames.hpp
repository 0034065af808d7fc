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
//
// The reader holds a frame whole until its last byte, so a length that no real frame can have is
// refused at its header: the parent's memory is not the worker's to grow. The worker holds every
// payload it sends (gathered writes copy nothing, but the parts are its own memory), so no frame
// of a worker capped at N bytes of address space is N bytes or more; a larger length is a worker
// no longer running our code (issue 16: isolation is the last line, so the parent does not trust
// it). Once a frame is refused the reader takes nothing more: `refused` is that frame's length.
struct FrameReader {
    std::string buffer;
    std::size_t max_frame = SIZE_MAX;
    std::size_t refused = 0;
    template <class Handle>
    void take(const char* data, std::size_t size, Handle&& handle) {
        if (refused) return;
        buffer.append(data, size);
        std::size_t at = 0;
        while (buffer.size() - at >= 8) {
            std::uint32_t topic_size, payload_size;
            std::memcpy(&topic_size, buffer.data() + at, 4);
            std::memcpy(&payload_size, buffer.data() + at + 4, 4);
            const std::size_t whole = 8 + std::size_t{topic_size} + payload_size;
            if (whole > max_frame) {
                refused = whole;
                buffer = std::string();
                return;
            }
            if (buffer.size() - at < whole) break;
            handle(buffer.substr(at + 8, topic_size), buffer.substr(at + 8 + topic_size, payload_size));
            at += whole;
        }
        buffer.erase(0, at);
    }
};

}  // namespace umpire::isolation
