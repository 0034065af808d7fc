// DeadlineSignal: the count hook armed only when a call's time limit has passed.
//
// LuaJIT runs its interpreter in a slower dispatch mode (every bytecode through the hook check)
// for as long as a count hook is set, whatever the count: a periodic hook that only looks at the
// clock cost 19% of the ASL MG attack (docs/performance.md, issue 18). So the host sets no hook
// while a call runs within its time, and this timer sets one at the deadline: a POSIX timer per
// host, aimed at the thread running the call (SIGEV_THREAD_ID), whose signal handler calls
// lua_sethook(L, hook, LUA_MASKCOUNT, 1) on that thread. That is how luajit.c stops a script on
// Ctrl-C: LuaJIT documents lua_sethook as callable asynchronously (lj_dispatch.c, "This function
// can be called asynchronously (e.g. during a signal)"), and running the handler on the Lua thread
// itself means no other thread ever touches the Lua state. The hook then stops the call at the
// next bytecode with its file:line, as the periodic hook did.
//
// The timer is lazy, so a call costs no system call: arm() stores the deadline and sets the timer
// only when it would otherwise fire after that deadline; a timer that fires before the running
// call's deadline (an earlier call's) is set again, from the handler, for the running one. A
// thread that ran a call may therefore get one signal up to the time limit after its last call;
// the handler is installed with SA_RESTART, so reads and waits go on (poll/nanosleep return EINTR).
//
// Compiled traces and C functions still never reach a hook: the watchdog (Watchdog.hpp) and the
// worker's parent stay the backstop, as before. Under --jit the handler also looks at where the
// signal interrupted the thread: inside a compiled loop, it notes the loop's line for the parent's
// message (TraceLines.hpp), and it looks again every 10 ms until the call ends.
#pragma once
#include <lua.hpp>

#include <chrono>

namespace umpire {

class DeadlineSignal {
public:
    DeadlineSignal(lua_State* L, lua_Hook hook);
    ~DeadlineSignal();
    DeadlineSignal(const DeadlineSignal&) = delete;
    DeadlineSignal& operator=(const DeadlineSignal&) = delete;

    // False when no timer could be made (all slots in use, or the kernel refused one): the host
    // then keeps the periodic count hook.
    bool usable() const { return slot_ >= 0; }
    // The calling thread runs a call until disarm(); at `deadline` (steady_clock, i.e.
    // CLOCK_MONOTONIC) the hook is set on this thread. Returns false if the timer could not be
    // aimed at this thread (the host then falls back to the periodic hook for this call).
    bool arm(std::chrono::steady_clock::time_point deadline);
    // The call ended: a later signal sets no hook. The caller clears a hook that was set.
    void disarm();

private:
    int slot_ = -1;
};

}  // namespace umpire
