// libFuzzer harness of the frames a worker writes to its parent (host/WorkerFrames.hpp): the
// gathered writes (writev on a pipe, sendmsg on a socket, in as many pieces as the kernel takes)
// and the reader that cuts the stream back into frames, whatever sizes its reads come in.
//
// An input either describes frames (topics, payloads in up to ~1,300 parts, more than IOV_MAX, of
// up to ~440 KB, 1 MiB an input) that a thread writes through a pipe or a socket pair with a 4 KiB buffer, so that
// most writes are partial, while this thread reads in chunks of a chosen size; every frame must
// come back whole and in order. Or its bytes are a raw stream, such as a worker under an attacker's
// control could write, fed to the reader in chunks, whose frames and leftover bytes must be the
// ones a parse of the whole stream at once finds. A difference, a crash or an ASan report is a
// finding.
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "host/WorkerFrames.hpp"

namespace {

using Frame = std::pair<std::string, std::string>;

struct Bytes {
    const std::uint8_t* data;
    std::size_t size, at = 0;
    bool more() const { return at < size; }
    int next() { return at < size ? data[at++] : 0; }
};

constexpr std::size_t kChunks[] = {1, 3, 8, 9, 100, 4096, 65536, 1 << 20};
// Payload bytes an input may ask for: reads of a few bytes (a system call each) get less.
constexpr std::size_t kMaxTotal = std::size_t{1} << 20, kMaxTotalSmallReads = std::size_t{16} << 10;

void fail(const char* what) {
    std::fprintf(stderr, "frames_fuzzer: %s\n", what);
    std::abort();
}

// Reads fd to its end in chunks of `chunk` bytes through a FrameReader.
std::vector<Frame> read_frames(int fd, std::size_t chunk, std::string& left) {
    umpire::isolation::FrameReader reader;
    std::vector<Frame> frames;
    std::vector<char> buffer(chunk);
    while (true) {
        const ssize_t n = ::read(fd, buffer.data(), chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail("read failed");
        if (n == 0) break;
        reader.take(buffer.data(), static_cast<std::size_t>(n),
                    [&](const std::string& topic, const std::string& payload) { frames.emplace_back(topic, payload); });
    }
    left = reader.buffer;
    return frames;
}

// The frames of a whole stream, parsed at once, and the bytes after the last whole frame.
std::vector<Frame> parse_whole(const std::string& stream, std::string& left) {
    std::vector<Frame> frames;
    std::size_t at = 0;
    while (stream.size() - at >= 8) {
        std::uint32_t topic_size, payload_size;
        std::memcpy(&topic_size, stream.data() + at, 4);
        std::memcpy(&payload_size, stream.data() + at + 4, 4);
        if (stream.size() - at - 8 < std::uint64_t{topic_size} + payload_size) break;
        frames.emplace_back(stream.substr(at + 8, topic_size), stream.substr(at + 8 + topic_size, payload_size));
        at += 8 + std::size_t{topic_size} + payload_size;
    }
    left = stream.substr(at);
    return frames;
}

void raw_stream(Bytes& in, std::size_t chunk) {
    const std::string stream(reinterpret_cast<const char*>(in.data + in.at), in.size - in.at);
    umpire::isolation::FrameReader reader;
    std::vector<Frame> frames;
    for (std::size_t at = 0; at < stream.size(); at += chunk)
        reader.take(stream.data() + at, std::min(chunk, stream.size() - at),
                    [&](const std::string& topic, const std::string& payload) { frames.emplace_back(topic, payload); });
    std::string left;
    if (parse_whole(stream, left) != frames) fail("the reader's frames differ from a whole parse");
    if (reader.buffer != left) fail("the reader kept other bytes than a whole parse leaves");
}

void written_frames(Bytes& in, bool socket, std::size_t chunk) {
    // The frames, as topics and payload parts; the parts' bytes count up so that a piece written
    // twice, skipped or out of order shows.
    std::vector<std::string> topics;
    std::vector<std::vector<std::string>> parts;
    std::size_t total = 0;
    std::uint8_t counter = 0;
    const std::size_t max_total = chunk < 100 ? kMaxTotalSmallReads : kMaxTotal;
    while (in.more() && topics.size() < 16 && total < max_total) {
        topics.emplace_back(static_cast<std::size_t>(in.next() % 12), 'a' + static_cast<char>(topics.size()));
        const int count_code = in.next();
        const std::size_t count = count_code < 240 ? count_code % 6 : 1000 + (count_code - 240) * 20;
        parts.emplace_back();
        for (std::size_t i = 0; i < count; ++i) {
            const int size_code = count > 8 ? in.next() % 3 : in.next();
            const std::size_t size = size_code < 200 ? size_code % 50 : std::size_t(size_code - 200) * 8000;
            std::string part(std::min(size, max_total - std::min(total, max_total)), '\0');
            for (char& c : part) c = static_cast<char>(counter++);
            total += part.size();
            parts.back().push_back(std::move(part));
        }
    }
    int fds[2];
    if (socket ? ::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0 : ::pipe(fds) != 0) fail("no pipe or socket pair");
    if (socket) {
        const int small = 4096;
        ::setsockopt(fds[1], SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
    } else {
        ::fcntl(fds[1], F_SETPIPE_SZ, 4096);
    }
    bool all_written = true;
    std::thread writer([&] {
        for (std::size_t f = 0; f < topics.size(); ++f) {
            std::vector<std::string_view> views(parts[f].begin(), parts[f].end());
            all_written = umpire::isolation::write_frame(fds[1], topics[f], views.data(), views.size()) && all_written;
        }
        ::close(fds[1]);
    });
    std::string left;
    const std::vector<Frame> frames = read_frames(fds[0], chunk, left);
    writer.join();
    ::close(fds[0]);
    if (!all_written) fail("a write_frame failed while the reader was there");
    if (!left.empty()) fail("bytes left after the last frame");
    if (frames.size() != topics.size()) fail("a different number of frames came back");
    for (std::size_t f = 0; f < topics.size(); ++f) {
        std::string payload;
        for (const auto& part : parts[f]) payload += part;
        if (frames[f].first != topics[f] || frames[f].second != payload) fail("a frame came back changed");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const bool sigpipe_ignored = (std::signal(SIGPIPE, SIG_IGN), true);
    (void)sigpipe_ignored;
    Bytes in{data, size};
    const int mode = in.next();
    const std::size_t chunk = kChunks[in.next() % (sizeof kChunks / sizeof kChunks[0])];
    if (mode & 1) raw_stream(in, chunk);
    else written_frames(in, (mode & 2) != 0, chunk);
    return 0;
}
