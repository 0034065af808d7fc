#include "host/TraceLines.hpp"

#include <lua.hpp>
#include <ucontext.h>

#include "core/Error.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>

namespace umpire::trace_lines {
namespace {

// The ranges live in a fixed table, never freed, shared by every state of the process (each
// Monte Carlo thread's host compiles its own traces). A slot is a small sequence lock: its writer
// makes `sequence` odd, writes the fields, then makes it even again; the signal handler reads a
// slot only while `sequence` is even and unchanged across its read, so a slot being written, on
// another thread or by the very thread the signal interrupted, is skipped rather than half read.
// Writers claim slots round-robin; past kSlots traces the oldest ranges are overwritten, which
// loses only the line of an old trace. A state's ranges are dropped when LuaJIT flushes its
// traces and when the state closes; a range recorded over an older one of the same state (machine
// code reused after a flush the handler missed) replaces it.
constexpr int kSlots = 2048;
constexpr unsigned kWhere = 160;

struct Slot {
    std::atomic<unsigned> sequence{0};
    std::atomic<const void*> owner{nullptr};  // the state's main lua_State; null: empty
    std::atomic<std::uintptr_t> begin{0};
    std::atomic<std::uintptr_t> end{0};
    char where[kWhere] = {};
};

Slot g_slots[kSlots];
std::atomic<unsigned> g_next{0};
std::atomic<int> g_states{0};

// Takes the slot for writing; false if another writer holds it.
bool lock(Slot& slot, unsigned& was) {
    was = slot.sequence.load(std::memory_order_relaxed);
    if (was & 1u) return false;
    if (!slot.sequence.compare_exchange_strong(was, was + 1, std::memory_order_relaxed)) return false;
    // The odd number is seen before any field written after it, by a reader on another core too
    // (a Monte Carlo thread's signal), on weakly ordered machines as well: a release fence.
    std::atomic_thread_fence(std::memory_order_release);
    return true;
}

void unlock(Slot& slot, unsigned was) {
    slot.sequence.store(was + 2, std::memory_order_release);  // the fields before the even number
}

// Empties the slots of `owner` (every one, or only those overlapping [begin, end)).
void drop(const void* owner, std::uintptr_t begin = 0, std::uintptr_t end = UINTPTR_MAX) {
    for (Slot& slot : g_slots) {
        if (slot.owner.load(std::memory_order_relaxed) != owner) continue;
        if (slot.end.load(std::memory_order_relaxed) <= begin || slot.begin.load(std::memory_order_relaxed) >= end)
            continue;
        unsigned was;
        if (!lock(slot, was)) continue;
        slot.owner.store(nullptr, std::memory_order_relaxed);
        unlock(slot, was);
    }
}

// record(address, size, where): the range of a trace just compiled, from the handler below.
int record(lua_State* L) {
    const void* owner = lua_touserdata(L, lua_upvalueindex(1));
    const auto begin = static_cast<std::uintptr_t>(luaL_checknumber(L, 1));
    const auto end = begin + static_cast<std::uintptr_t>(luaL_checknumber(L, 2));
    std::size_t length = 0;
    const char* where = luaL_checklstring(L, 3, &length);
    drop(owner, begin, end);
    for (int tries = 0; tries < kSlots; ++tries) {
        Slot& slot = g_slots[g_next.fetch_add(1, std::memory_order_relaxed) % kSlots];
        unsigned was;
        if (!lock(slot, was)) continue;
        const std::size_t n = length < kWhere - 2 ? length : kWhere - 2;
        std::memcpy(slot.where, where, n);
        slot.where[n] = ':';
        slot.where[n + 1] = '\0';
        slot.begin.store(begin, std::memory_order_relaxed);
        slot.end.store(end, std::memory_order_relaxed);
        slot.owner.store(owner, std::memory_order_relaxed);
        unlock(slot, was);
        break;
    }
    return 0;
}

// forget(): LuaJIT flushed the state's traces.
int forget_all(lua_State* L) {
    drop(lua_touserdata(L, lua_upvalueindex(1)));
    return 0;
}

// The handler of jit.attach's "trace" events. "start" gives the function and bytecode a trace
// begins at, "stop" the finished trace (whose machine code jit.util.tracemc returns with its
// address), "abort" a trace given up, "flush" every trace of the state discarded. The body runs
// under pcall: an error in a VM event handler (a memory error at the cap) would otherwise be
// printed on stderr by LuaJIT; here it costs only that trace's line.
constexpr const char* kHandler = R"lua(
local attach, funcinfo, tracemc, record, forget = ...
local starts = {}
local function on_trace(what, trace, func, pc)
  if what == "start" then
    starts[trace] = funcinfo(func, pc).loc
  elseif what == "stop" then
    local where = starts[trace]
    starts[trace] = nil
    local mcode, address = tracemc(trace)
    if where and mcode then record(address, #mcode, where) end
  elseif what == "abort" then
    starts[trace] = nil
  elseif what == "flush" then
    for trace in next, starts do starts[trace] = nil end
    forget()
  end
end
attach(function(...) pcall(on_trace, ...) end, "trace")
)lua";

}  // namespace

bool attach(lua_State* L) {
    const int top = lua_gettop(L);
    if (luaL_loadbuffer(L, kHandler, std::strlen(kHandler), "=(trace lines)") != 0)
        throw Error(std::string("cannot make the trace-line handler: ") + lua_tostring(L, -1));
    lua_getglobal(L, "jit");
    lua_getfield(L, -1, "attach");
    lua_replace(L, -2);
    lua_getglobal(L, "require");
    lua_pushliteral(L, "jit.util");
    if (lua_pcall(L, 1, 1, 0) != 0 || !lua_istable(L, -1)) {
        lua_settop(L, top);
        return false;  // a LuaJIT without jit.util: compiled loops then name only their chunk
    }
    lua_getfield(L, -1, "funcinfo");
    lua_getfield(L, -2, "tracemc");
    lua_remove(L, -3);
    lua_pushlightuserdata(L, L);
    lua_pushcclosure(L, record, 1);
    lua_pushlightuserdata(L, L);
    lua_pushcclosure(L, forget_all, 1);
    if (lua_pcall(L, 5, 0, 0) != 0)
        throw Error(std::string("cannot attach the trace-line handler: ") + lua_tostring(L, -1));
    g_states.fetch_add(1, std::memory_order_relaxed);
    lua_settop(L, top);
    return true;
}

void forget(lua_State* L) {
    drop(L);
    g_states.fetch_sub(1, std::memory_order_relaxed);
}

bool any() { return g_states.load(std::memory_order_relaxed) > 0; }

bool find(const void* address, char* out, unsigned size) {
    const auto at = reinterpret_cast<std::uintptr_t>(address);
    for (Slot& slot : g_slots) {
        const unsigned before = slot.sequence.load(std::memory_order_acquire);
        if (before & 1u) continue;
        std::atomic_signal_fence(std::memory_order_seq_cst);
        if (!slot.owner.load(std::memory_order_relaxed) || at < slot.begin.load(std::memory_order_relaxed) ||
            at >= slot.end.load(std::memory_order_relaxed))
            continue;
        unsigned i = 0;
        for (; i + 1 < size && i < kWhere && slot.where[i]; ++i) out[i] = slot.where[i];
        out[i] = '\0';
        std::atomic_thread_fence(std::memory_order_acquire);
        if (slot.sequence.load(std::memory_order_relaxed) == before) return true;
    }
    return false;
}

// The stack is searched a word at a time, from the newest frame to the oldest, for a value that
// lies in one of the state's trace ranges. A trace calls a helper (lj_tab_grow, lj_str_new, ...)
// with the x86 `call`, which pushes the address after it: an address inside the trace. The
// helpers' own frames sit above that word and hold no machine-code addresses of the state's
// traces (unless stale, from an earlier call of the same trace: then the line is still that
// trace's). Words outside every range are skipped after two compares against the bounds of all
// the state's ranges, so only a few words reach the slot search. The words read include the
// padding of C frames, which AddressSanitizer keeps poisoned: the search is not instrumented.
#if defined(__SANITIZE_ADDRESS__)
#define UMPIRE_NO_ASAN __attribute__((no_sanitize("address")))
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UMPIRE_NO_ASAN __attribute__((no_sanitize("address")))
#endif
#endif
#ifndef UMPIRE_NO_ASAN
#define UMPIRE_NO_ASAN
#endif

constexpr std::uintptr_t kMostStack = std::uintptr_t{1} << 20;

namespace {

// The search itself, over the words [word, top), for the ranges of `owner`'s state (null: of any
// state). Async-signal-safe: atomics and plain reads only.
UMPIRE_NO_ASAN bool search_stack(const void* owner, const std::uintptr_t* word, const std::uintptr_t* top, char* out,
                                 unsigned size) {
    std::uintptr_t low = UINTPTR_MAX, high = 0;
    for (Slot& slot : g_slots) {
        const void* of = slot.owner.load(std::memory_order_relaxed);
        if (!of || (owner && of != owner)) continue;
        low = std::min(low, slot.begin.load(std::memory_order_relaxed));
        high = std::max(high, slot.end.load(std::memory_order_relaxed));
    }
    if (low >= high) return false;
    // (a frame address from another stack, e.g. a coroutine's C stack, would be a wild range)
    if (top <= word || reinterpret_cast<std::uintptr_t>(top) - reinterpret_cast<std::uintptr_t>(word) > kMostStack)
        return false;
    for (; word < top; ++word) {
        const std::uintptr_t value = *word;
        if (value < low || value >= high) continue;
        for (Slot& slot : g_slots) {
            const unsigned before = slot.sequence.load(std::memory_order_acquire);
            const void* of = slot.owner.load(std::memory_order_relaxed);
            if ((before & 1u) || !of || (owner && of != owner)) continue;
            if (value < slot.begin.load(std::memory_order_relaxed) || value >= slot.end.load(std::memory_order_relaxed))
                continue;
            unsigned i = 0;
            for (; i + 1 < size && i < kWhere && slot.where[i]; ++i) out[i] = slot.where[i];
            out[i] = '\0';
            if (slot.sequence.load(std::memory_order_acquire) == before) return true;
        }
    }
    return false;
}

// The frame of the outer LuaHost::call on this thread (note_call_frame). A plain thread_local of
// the executable: read from a signal handler without a call into the TLS resolver.
thread_local const void* t_call_frame = nullptr;

}  // namespace

bool find_caller(lua_State* L, const void* stack_top, char* out, unsigned size) {
    return search_stack(L, static_cast<const std::uintptr_t*>(__builtin_frame_address(0)),
                        static_cast<const std::uintptr_t*>(stack_top), out, size);
}

void note_call_frame(const void* frame) { t_call_frame = frame; }

// The program counter (pc) or the stack pointer a signal interrupted, from its handler's
// ucontext; null on a machine this does not know.
static const void* interrupted(const void* context, bool pc) {
    const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
    return reinterpret_cast<const void*>(uc->uc_mcontext.gregs[pc ? REG_RIP : REG_RSP]);
#elif defined(__aarch64__)
    return reinterpret_cast<const void*>(pc ? uc->uc_mcontext.pc : uc->uc_mcontext.sp);
#else
    (void)uc;
    (void)pc;
    return nullptr;
#endif
}

const void* program_counter(const void* context) { return interrupted(context, true); }

bool find_crashed(const void* context, char* out, unsigned size) {
    if (!any()) return false;
    if (find(program_counter(context), out, size)) return true;
    // A C helper the trace called (LuaJIT's table, string and error functions): its return address
    // into the trace is on the stack, above the interrupted stack pointer and below the outer
    // call's frame. Only within that call: older words above it hold nothing of this run.
    const void* top = t_call_frame;
    const void* sp = interrupted(context, false);
    if (!top || !sp) return false;
    return search_stack(nullptr, static_cast<const std::uintptr_t*>(sp), static_cast<const std::uintptr_t*>(top), out,
                        size);
}

}  // namespace umpire::trace_lines
