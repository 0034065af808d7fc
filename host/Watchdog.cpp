#include "host/Watchdog.hpp"

#include <unistd.h>

#include <cstdio>

namespace umpire {

Watchdog::Watchdog() : thread_([this] { loop(); }) {}

Watchdog::~Watchdog() {
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void Watchdog::arm(double seconds) {
    {
        std::lock_guard lock(mutex_);
        armed_ = true;
        seconds_ = seconds;
        deadline_ = std::chrono::steady_clock::now() +
                    std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(seconds));
    }
    cv_.notify_all();
}

void Watchdog::disarm() {
    {
        std::lock_guard lock(mutex_);
        armed_ = false;
    }
    cv_.notify_all();
}

void Watchdog::loop() {
    std::unique_lock lock(mutex_);
    while (!quit_) {
        if (!armed_) {
            cv_.wait(lock);
            continue;
        }
        if (cv_.wait_until(lock, deadline_) == std::cv_status::timeout && armed_ && !quit_ &&
            std::chrono::steady_clock::now() >= deadline_) {
            // No Lua position is available from this thread: the Lua state belongs to the other.
            std::fprintf(stderr,
                         "umpire: script stopped: ran longer than %gs (runaway loop?). In --trusted "
                         "mode compiled code cannot be interrupted, so umpire exits; run without "
                         "--trusted to get the file and line.\n",
                         seconds_);
            std::fflush(stderr);
            _exit(1);
        }
    }
}

}  // namespace umpire
