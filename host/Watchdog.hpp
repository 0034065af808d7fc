// Trusted mode's time limit. JIT-compiled traces never call hooks, so a runaway loop in trusted
// code cannot be stopped from inside the process; a watchdog thread ends the whole process with
// a clear message and exit code 1 instead (docs/sandbox.md).
#pragma once
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
    // Ends the process unless disarm() is called within `seconds`.
    void arm(double seconds);
    void disarm();

private:
    void loop();
    std::mutex mutex_;
    std::condition_variable cv_;
    bool armed_ = false, quit_ = false;
    double seconds_ = 0;
    std::chrono::steady_clock::time_point deadline_;
    std::thread thread_;
};

}  // namespace umpire
