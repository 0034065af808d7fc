// The backstop of the time limit. Code that never reaches a count hook cannot be stopped from
// inside the process: JIT-compiled traces (trusted mode), and long C functions in either mode --
// a pattern-matching bomb such as ("a"):rep(3000):find(".-.-.-.-.-b") runs for hours inside
// string.find, which calls no hook. A watchdog thread waits for the deadline and, if the call is
// still running then (plus a grace period in the sandbox, where the hook normally stops Lua code
// well within it), ends the whole process with a clear message and exit code 1. Interrupting the
// C code in-process (a signal and a longjmp out of the matcher) would leave the allocator and the
// Lua state in unknown shape, so the process is the unit that is stopped (docs/sandbox.md).
// In an isolated worker (host/Isolation.hpp) that process is the worker, and the parent does the
// waiting: no thread is made here.
#pragma once
#include <time.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace umpire {

class Watchdog {
public:
    Watchdog();
    ~Watchdog();
    // Ends the process unless disarm() is called within seconds + grace. `trusted` picks the
    // message (compiled code vs. a C function of the sandbox).
    void arm(double seconds, double grace, bool trusted);
    void disarm();
    // Where the rules last entered a long C call ("file:line: string.find"), for the message;
    // "" clears it. Called by the Lua thread, read by the watchdog thread (under the mutex).
    void set_where(const char* where);

private:
    void loop();
    bool hook_still_may_stop(std::unique_lock<std::mutex>& lock);
    std::mutex mutex_;
    std::condition_variable cv_;
    bool armed_ = false, quit_ = false, trusted_ = false;
    double seconds_ = 0;
    char where_[240] = "";
    std::chrono::steady_clock::time_point deadline_;
    // When the watchdog thread will next look (max: idle until notified). arm() wakes it only
    // when the new deadline comes before that, and disarm() never does: a Monte Carlo worker arms
    // and disarms once per sample, and waking the thread each time cost a context switch per
    // sample (about 18,000 for 20,000 samples) on a 2-core machine.
    std::chrono::steady_clock::time_point wake_ = std::chrono::steady_clock::time_point::max();
    clockid_t clock_{};  // CPU clock of the thread that armed (the Lua thread)
    bool has_clock_ = false;
    int slot_ = -1;  // in a worker process: its slot in the page the parent watches (Isolation.hpp)
    std::thread thread_;
};

}  // namespace umpire
