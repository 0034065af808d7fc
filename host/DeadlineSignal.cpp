#include "host/DeadlineSignal.hpp"

#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <mutex>

#include "host/Isolation.hpp"
#include "host/TraceLines.hpp"

namespace umpire {
namespace {

// What the signal handler reads lives in a fixed table, never freed: a signal already queued
// when its host goes away finds a released slot (or one another host claimed, whose thread
// check fails) instead of freed memory. Every field the handler reads is a lock-free atomic or
// is written before `claimed` is published. More hosts at once than slots (a test that keeps
// hundreds alive) fall back to the periodic hook. One cache line per slot: arm() and disarm() write
// their host's slot at every top-level call, from the thread running it, and two Monte Carlo
// threads' slots on one line made those writes move the line between cores (false sharing).
struct alignas(64) Slot {
    std::atomic<bool> claimed{false};
    lua_State* L = nullptr;
    lua_Hook hook = nullptr;
    timer_t timer{};
    std::atomic<pid_t> thread{0};          // the thread the timer is aimed at (0: none yet)
    std::atomic<bool> armed{false};        // a call is running on that thread
    std::atomic<std::int64_t> deadline{0};  // of that call, CLOCK_MONOTONIC nanoseconds
    std::atomic<std::int64_t> due{LLONG_MAX};  // when the timer fires next (LLONG_MAX: not set)
};
constexpr int kSlots = 128;
Slot g_slots[kSlots];
int g_signal = 0;  // SIGRTMIN + 4, set once the handler is installed

std::int64_t monotonic_now() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

// Async-signal-safe: clock_gettime, timer_settime and lua_sethook only.
void set_timer(Slot& slot, std::int64_t at) {
    itimerspec when{};
    when.it_value.tv_sec = at / 1'000'000'000;
    when.it_value.tv_nsec = at % 1'000'000'000;
    slot.due.store(at, std::memory_order_relaxed);
    timer_settime(slot.timer, TIMER_ABSTIME, &when, nullptr);
}

// A process forked after a host armed its timer (a worker forked from a parent that already ran
// rule code) inherits the slots but not the timers, and its thread's cached id is its parent
// thread's. So a fork starts a new generation: the child forgets every slot's thread (arm() then
// makes a timer of its own) and each thread looks its id up again. Without this the child would
// keep setting a timer it does not have, and a runaway loop there would not stop at its deadline.
std::atomic<unsigned> g_fork_generation{0};

pid_t this_thread_id() {
    thread_local unsigned generation = ~0u;
    thread_local pid_t id = 0;
    const unsigned now = g_fork_generation.load(std::memory_order_relaxed);
    if (generation != now) {
        id = gettid();
        generation = now;
    }
    return id;
}

void forget_timers_after_fork() {
    g_fork_generation.fetch_add(1, std::memory_order_relaxed);
    for (Slot& slot : g_slots) {
        slot.thread.store(0, std::memory_order_relaxed);  // the timer id is the parent's: never delete it here
        slot.due.store(LLONG_MAX, std::memory_order_relaxed);
    }
}

// Past the deadline with the JIT on, the hook may never run (a compiled loop): look at where the
// thread is. Inside a trace's machine code, its line is noted for the parent, which then names
// it when it kills the worker. The timer looks again kLookAgainNs later for as long as the call
// runs: outside a trace (a C function the trace called, the kernel) to find one, and inside one
// to note it again, which keeps the note fresh against other threads' positions
// (isolation::note_compiled_loop).
constexpr std::int64_t kLookAgainNs = 10'000'000;

void look_for_compiled_loop(Slot& slot, void* context) {
    if (!trace_lines::any()) return;
    char where[160];
    if (trace_lines::find(trace_lines::program_counter(context), where, sizeof where)) isolation::note_compiled_loop(where);
    set_timer(slot, monotonic_now() + kLookAgainNs);
}

void on_signal(int, siginfo_t* info, void* context) {
    const int saved_errno = errno;
    const int index = info->si_value.sival_int;
    if (info->si_code == SI_TIMER && index >= 0 && index < kSlots) {
        Slot& slot = g_slots[index];
        // A signal of a timer since deleted, or aimed at the thread a host used before.
        if (slot.claimed.load(std::memory_order_acquire) &&
            slot.thread.load(std::memory_order_relaxed) == this_thread_id()) {
            slot.due.store(LLONG_MAX, std::memory_order_relaxed);
            if (slot.armed.load(std::memory_order_relaxed)) {
                const std::int64_t deadline = slot.deadline.load(std::memory_order_relaxed);
                if (monotonic_now() >= deadline) {
                    lua_sethook(slot.L, slot.hook, LUA_MASKCOUNT, 1);
                    look_for_compiled_loop(slot, context);
                } else {
                    set_timer(slot, deadline);
                }  // an earlier call's deadline: wait for this one's
            }
        }
    }
    errno = saved_errno;
}

void install_handler() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action {};
        action.sa_sigaction = on_signal;
        action.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&action.sa_mask);
        const int signal = SIGRTMIN + 4;
        if (sigaction(signal, &action, nullptr) == 0) g_signal = signal;
        pthread_atfork(nullptr, nullptr, forget_timers_after_fork);
    });
}

}  // namespace

DeadlineSignal::DeadlineSignal(lua_State* L, lua_Hook hook) {
    install_handler();
    if (!g_signal) return;
    for (int s = 0; s < kSlots; ++s) {
        bool expected = false;
        if (!g_slots[s].claimed.compare_exchange_strong(expected, true)) continue;
        // Claimed but not yet aimed (thread 0), so the handler ignores it until arm().
        g_slots[s].L = L;
        g_slots[s].hook = hook;
        g_slots[s].armed.store(false);
        g_slots[s].due.store(LLONG_MAX);
        slot_ = s;
        return;
    }
}

DeadlineSignal::~DeadlineSignal() {
    if (slot_ < 0) return;
    Slot& slot = g_slots[slot_];
    slot.armed.store(false);
    if (slot.thread.exchange(0) != 0) timer_delete(slot.timer);
    slot.claimed.store(false, std::memory_order_release);
}

bool DeadlineSignal::arm(std::chrono::steady_clock::time_point deadline) {
    Slot& slot = g_slots[slot_];
    const pid_t me = this_thread_id();
    if (slot.thread.load(std::memory_order_relaxed) != me) {
        // First call, or the host moved to another thread (a Monte Carlo worker made on one
        // thread and run on another): aim a new timer at this one. Until `thread` says so, a
        // signal here is ignored.
        if (slot.thread.exchange(0) != 0) timer_delete(slot.timer);
        sigevent event{};
        event.sigev_notify = SIGEV_THREAD_ID;
        event.sigev_signo = g_signal;
        event.sigev_value.sival_int = slot_;
        event._sigev_un._tid = me;
        if (timer_create(CLOCK_MONOTONIC, &event, &slot.timer) != 0) return false;
        slot.due.store(LLONG_MAX);
        slot.thread.store(me);
    }
    const std::int64_t at =
        std::chrono::duration_cast<std::chrono::nanoseconds>(deadline.time_since_epoch()).count();
    slot.deadline.store(at, std::memory_order_relaxed);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    slot.armed.store(true, std::memory_order_relaxed);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    // Already set for this deadline or an earlier one (then the handler sets it again): no call.
    if (at < slot.due.load(std::memory_order_relaxed)) set_timer(slot, at);
    return true;
}

void DeadlineSignal::disarm() {
    g_slots[slot_].armed.store(false, std::memory_order_relaxed);
    std::atomic_signal_fence(std::memory_order_seq_cst);
}

}  // namespace umpire
