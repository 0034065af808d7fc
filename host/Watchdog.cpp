#include "host/Watchdog.hpp"

#include <pthread.h>
#include <unistd.h>

#include <ctime>

#include <algorithm>

#include "host/Isolation.hpp"

#include <cstdio>

namespace umpire {

// In a worker, the wall-clock grace before the parent starts counting the worker's CPU time.
constexpr double kWorkerGrace = 0.05;

// In a worker process the parent is the watchdog: the deadline goes into a slot of the page it
// watches, and it kills the worker (and so ends the call) from outside, with no thread here.
Watchdog::Watchdog() : slot_(isolation::claim_slot()) {
    if (slot_ < 0) thread_ = std::thread([this] { loop(); });
}

Watchdog::~Watchdog() {
    if (slot_ >= 0) {
        isolation::release_slot(slot_);
        return;
    }
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void Watchdog::arm(double seconds, double grace, bool trusted) {
    if (slot_ >= 0) {
        // The parent waits for the hook differently (Isolation.cpp, kCpuPastDeadline), with a
        // shorter grace in wall time.
        const auto deadline = std::chrono::steady_clock::now() +
                              std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                  std::chrono::duration<double>(seconds + std::min(grace, kWorkerGrace)));
        isolation::arm_slot(slot_, std::chrono::duration_cast<std::chrono::nanoseconds>(deadline.time_since_epoch()).count(),
                            seconds, trusted);
        return;
    }
    bool wake_thread = false;
    {
        std::lock_guard lock(mutex_);
        armed_ = true;
        trusted_ = trusted;
        has_clock_ = pthread_getcpuclockid(pthread_self(), &clock_) == 0;  // the Lua thread's CPU clock
        seconds_ = seconds;
        where_[0] = '\0';
        deadline_ = std::chrono::steady_clock::now() +
                    std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(seconds + grace));
        // A thread asleep until an earlier call's deadline wakes then, finds this later one and
        // sleeps again: no need to wake it now.
        wake_thread = deadline_ < wake_;
    }
    if (wake_thread) cv_.notify_all();
}

void Watchdog::disarm() {
    if (slot_ >= 0) {
        isolation::disarm_slot(slot_);
        return;
    }
    // Not woken: at its planned time the thread sees the call has ended (armed_ false, or a later
    // deadline of the next call).
    std::lock_guard lock(mutex_);
    armed_ = false;
}

void Watchdog::set_where(const char* where) {
    isolation::note_where(where);
    if (slot_ >= 0) return;
    std::lock_guard lock(mutex_);
    std::snprintf(where_, sizeof where_, "%s", where);
}

// Past the deadline (the limit + grace), in the sandbox, the count hook may still be about to
// stop the call: a thread that was waiting for a core on a loaded machine (an ASan build while
// other builds run) has not had its chance. So the watchdog gives the Lua thread kCpuPastDeadline
// of CPU time of its own past the deadline (the hook needs microseconds) before it concludes the
// thread is stuck in C, and waits at most kMaxWait in wall time for that. Returns true if the
// call ended (was disarmed) meanwhile. Compiled code (trusted) has no hook: no wait.
bool Watchdog::hook_still_may_stop(std::unique_lock<std::mutex>& lock) {
    constexpr double kCpuPastDeadline = 0.01;
    constexpr auto kMaxWait = std::chrono::seconds(1);
    if (trusted_ || !has_clock_) return false;
    const auto thread_cpu = [this] {
        timespec t{};
        if (clock_gettime(clock_, &t) != 0) return 1e9;  // the thread is gone: do not wait
        return static_cast<double>(t.tv_sec) + t.tv_nsec / 1e9;
    };
    const auto armed_deadline = deadline_;
    const double cpu_at_deadline = thread_cpu();
    while (thread_cpu() - cpu_at_deadline < kCpuPastDeadline &&
           std::chrono::steady_clock::now() < armed_deadline + kMaxWait) {
        cv_.wait_for(lock, std::chrono::milliseconds(5));
        if (!armed_ || quit_ || deadline_ != armed_deadline) return true;
    }
    return false;
}

void Watchdog::loop() {
    std::unique_lock lock(mutex_);
    while (!quit_) {
        if (!armed_) {
            wake_ = std::chrono::steady_clock::time_point::max();
            cv_.wait(lock);
            continue;
        }
        wake_ = deadline_;
        if (cv_.wait_until(lock, wake_) == std::cv_status::timeout && armed_ && !quit_ &&
            std::chrono::steady_clock::now() >= deadline_ && !hook_still_may_stop(lock)) {
            // The Lua state belongs to the other thread, so the position is only what it noted
            // before entering a long C call (set_where).
            if (trusted_) {
                std::fprintf(stderr,
                             "umpire: script stopped: ran longer than %gs (runaway loop?). In "
                             "--trusted mode compiled code cannot be interrupted, so umpire exits; "
                             "run without --trusted to get the file and line.\n",
                             seconds_);
            } else {
                std::fprintf(stderr,
                             "umpire: %s%sscript stopped: ran longer than %gs inside a C function "
                             "that cannot be interrupted (a pattern-matching bomb?), so umpire "
                             "exits\n",
                             where_, where_[0] ? " " : "", seconds_);
            }
            std::fflush(stderr);
            _exit(1);
        }
    }
}

}  // namespace umpire
