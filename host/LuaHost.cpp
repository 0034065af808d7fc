#include "host/LuaHost.hpp"

#include "core/bus/Hash.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <new>
#include <sstream>

#include "host/Sanitizers.hpp"
#ifdef UMPIRE_ASAN
#include <sanitizer/asan_interface.h>
// The size malloc gave a block (sanitizer/allocator_interface.h, which GCC does not ship).
extern "C" std::size_t __sanitizer_get_allocated_size(const volatile void* block);
#endif

#include "bindings/GameState.hpp"
#include "host/DataGuard.hpp"
#include "host/FileSnapshot.hpp"
#include "host/Isolation.hpp"
#include "host/Sandbox.hpp"
#include "host/TailCallWhere.hpp"
#include "host/TraceLines.hpp"
#include "host/DeadlineSignal.hpp"
#include "host/Watchdog.hpp"
#include "bindings/GameLog.hpp"
#include "bindings/api_modules.hpp"

namespace umpire {
namespace fs = std::filesystem;

// The memory cap lives in the allocator: LuaJIT's lua_newstate accepts a custom allocator on
// Debian's x86_64 GC64 build (checked: it returns a working state, and a NULL from the
// allocator surfaces as a catchable "not enough memory" error, after which the state is fine).
// The allocator's user data is also how the hook and the bindings find their host cheaply
// (lua_getallocf).
// The userdata is the Game (bindings/Game.hpp: that is how a binding finds its game).
//
// Small blocks (up to kSmallMax bytes: most tables, strings, closures and upvalues of rule code,
// and the hash part of a table of up to 32 keys) are recycled per size class instead of going back
// to malloc: a Monte Carlo sample of the ASL MG attack makes about 150 of them and glibc's
// malloc/free cost about a fifth of the sample. The resting blocks belong to this host (one Lua
// state, one thread at a time), so they need no lock, and they are at most the state's peak of
// small blocks. The cap counts the sizes Lua asked for, as before; a resting block is not in use.
//
// A class keeps its resting blocks' addresses on a stack of its own (a Shelf), not in a list
// threaded through the blocks: the collector frees blocks in its sweep's order and they are taken
// again long after, from memory that has left the cache, and a list's pop had to read the cold
// block's link before it could go on (`perf record` of the MG attack: 11% of the time in the
// allocator, three quarters of it at that one load). A shelf's top is in the cache and the block
// itself is only written, by Lua, once it is handed out. The order is the list's (last given,
// first taken). A shelf grows by doubling, with malloc (the allocator's own bookkeeping, not Lua's
// memory: 8 bytes a resting block, and blocks are at least 16 bytes); when that fails, the block
// stays unused in its slab (new small blocks are cut from the host's own slabs: carve, below).
//
// Under AddressSanitizer the shelves would hide what ASan checks for malloc's blocks, so the
// allocator tells it about them: the bytes of a block past the size Lua asked for are poisoned
// (a write past a string, table or buffer is reported at the exact size, not at the class's
// end), a resting block is poisoned whole (a use after free is reported), and a block given back
// while already poisoned whole is a double free (reported and aborted).
struct LuaHost::Allocator {
    static constexpr std::size_t kGrain = 16;  // malloc's alignment on x86_64, so every class keeps it
    static constexpr std::size_t kSmallMax = 1024;
    static constexpr std::size_t kClasses = kSmallMax / kGrain;
    static constexpr std::size_t kFirstShelfSlots = 64;

    // The resting blocks of one size class: floor[0 .. top - floor), the top block at top[-1], room
    // up to end. Kept as three addresses, not an array and two counts, so that a give or a take is
    // one comparison of two of them and one step of `top` (the two commonest calls, ~29 each in a
    // Monte Carlo sample of the ASL MG attack: 21 and 33 machine instructions with counts, 20 and
    // 26 now). The slot below floor is a null sentinel: a take prefetches top[-1], the block the
    // next take hands out, with no test for the shelf having run empty (a prefetch of address 0
    // is harmless: it never faults). All three are null until the shelf's first widen.
    struct Shelf {
        void** top = nullptr;
        void** floor = nullptr;
        void** end = nullptr;
    };

    std::size_t used = 0;
    std::size_t limit = 0;
    // Allocations refused (past the cap, or the address space ran out): each is a LUA_ERRMEM. The
    // sandbox's pcall, LuaJIT's own underneath (its status not shown to Lua), compares the count
    // before and after a failed call to tell a memory error from an error of that text.
    std::uint64_t refused = 0;
    // Past this many bytes in use, the allocator has the host note the running file:line
    // (LuaHost::watch_memory_position): half the cap during a call run without the periodic
    // hook, never otherwise. One comparison per allocation.
    std::size_t note_above = SIZE_MAX;
    // While the heap is at most this many bytes, the collector runs at the roomy pace (LuaHost::
    // pace_collector); SIZE_MAX while LuaJIT's default pace is in force.
    std::size_t roomy_until = SIZE_MAX;
    // The least of limit, note_above and roomy_until: an allocation that keeps the heap at or
    // under it needs no check but the one (allocate's fast path).
    std::size_t quiet_until = 0;
    Shelf shelves[kClasses] = {};
    // The host's own slabs, from which every new small block is cut (see carve below), and the
    // uncut rest of the newest one.
    std::vector<void*> slabs;
    char* slab_next = nullptr;
    char* slab_end = nullptr;

    void update_quiet_until() { quiet_until = std::min({limit, note_above, roomy_until}); }

    Allocator() = default;
    Allocator(const Allocator&) = delete;
    Allocator& operator=(const Allocator&) = delete;
    ~Allocator() {
        for (Shelf& shelf : shelves) {
#ifdef UMPIRE_ASAN
            const std::size_t bytes = static_cast<std::size_t>(&shelf - shelves + 1) * kGrain;
            for (void** slot = shelf.floor; slot != shelf.top; ++slot) {
                reveal(*slot, bytes);
                std::free(*slot);
            }
#endif
            if (shelf.floor) std::free(shelf.floor - 1);
        }
        for (void* slab : slabs) std::free(slab);
    }

    static bool small(std::size_t size) { return size <= kSmallMax; }
    static std::size_t size_class(std::size_t size) { return (size + kGrain - 1) / kGrain - 1; }
    static std::size_t class_bytes(std::size_t size) { return (size_class(size) + 1) * kGrain; }

    // ASan annotations (no code without ASan): `reveal` makes bytes addressable, `hide` poisons them.
    static void reveal(void* block, std::size_t bytes) {
#ifdef UMPIRE_ASAN
        ASAN_UNPOISON_MEMORY_REGION(block, bytes);
#else
        (void)block, (void)bytes;
#endif
    }
    static void hide(void* block, std::size_t bytes) {
#ifdef UMPIRE_ASAN
        ASAN_POISON_MEMORY_REGION(block, bytes);
#else
        (void)block, (void)bytes;
#endif
    }
    // A small block in use: its first `size` bytes addressable, the rest of its class poisoned.
    // Under ASan, a block smaller than that (a size class computed wrong) stops the process here:
    // revealing bytes past it would hide malloc's red zone from ASan.
    static void fit(void* block, std::size_t size) {
#ifdef UMPIRE_ASAN
        if (__sanitizer_get_allocated_size(block) < size) {
            std::fprintf(stderr, "LuaHost::Allocator: block %p of %zu bytes handed out for %zu\n", block,
                         __sanitizer_get_allocated_size(block), size);
            __sanitizer_print_stack_trace();
            std::abort();
        }
#endif
        reveal(block, size);
        hide(static_cast<char*>(block) + size, class_bytes(size) - size);
    }

    // The top block of a shelf that is not empty, fitted to `size`.
    static void* pop(Shelf& shelf, std::size_t size) {
        void* block = *--shelf.top;
        __builtin_prefetch(shelf.top[-1], 1);
        fit(block, size);
        return block;
    }
    // Puts a block of `size` bytes on a shelf that is not full.
    static void push(Shelf& shelf, void* block, std::size_t size) {
        *shelf.top++ = block;
        hide(block, class_bytes(size));
    }
    // The top block of the class's shelf, fitted to `size`; null if the shelf is empty.
    void* unshelve(std::size_t size) {
        Shelf& shelf = shelves[size_class(size)];
        return shelf.top != shelf.floor ? pop(shelf, size) : nullptr;
    }
    // Puts a block of `size` bytes on its class's shelf; false if the shelf is full.
    bool shelve(void* block, std::size_t size) {
        Shelf& shelf = shelves[size_class(size)];
        if (shelf.top == shelf.end) return false;
        push(shelf, block, size);
        return true;
    }
    void* take(std::size_t size) {
        if (void* block = unshelve(size)) return block;
        void* block = carve(class_bytes(size));
        if (block) fit(block, size);
        return block;
    }
    void give(void* block, std::size_t size) {
        if (!shelve(block, size) && !(widen(shelves[size_class(size)]) && shelve(block, size)))
            lose(block);
    }

    // A new small block of `bytes` (a class's size), cut from the host's own slab rather than
    // taken from malloc. Why: the hosts of a run's Monte Carlo workers are all made on the calling
    // thread, so with malloc their small blocks came from one arena, a host's blocks in the holes
    // the other host's load had freed: two workers' objects on one 64-byte line, which the
    // collector's marks and the rule code's writes then passed between the two cores on every
    // sample. A slab is 64-byte aligned and only ever cut for this host, so no line holds two
    // hosts' blocks. Blocks are never given back to a slab (they rest on their shelf, as before);
    // the slabs go with the host. The tail of a slab too short for a block is left unused (under
    // kSmallMax bytes a slab). Under ASan every block stays malloc's, which ASan checks.
    static constexpr std::size_t kSlabBytes = std::size_t{64} << 10;
    static constexpr std::size_t kLine = 64;
    void* carve(std::size_t bytes) {
#ifdef UMPIRE_ASAN
        return std::malloc(bytes);
#else
        if (static_cast<std::size_t>(slab_end - slab_next) < bytes && !new_slab()) return nullptr;
        void* block = slab_next;
        slab_next += bytes;
        return block;
#endif
    }
    [[gnu::noinline]] bool new_slab() {
        // Room in the list first, so that a slab is never made and then lost; Lua's allocator
        // must not throw, so a failure is a refusal.
        if (slabs.size() == slabs.capacity()) {
            try {
                slabs.reserve(slabs.size() * 2 + 16);
            } catch (const std::bad_alloc&) {
                return false;
            }
        }
        void* slab = std::aligned_alloc(kLine, kSlabBytes);
        if (!slab) return false;
        slabs.push_back(slab);
        slab_next = static_cast<char*>(slab);
        slab_end = slab_next + kSlabBytes;
        return true;
    }
    // A small block no shelf has room for: malloc has it back under ASan; otherwise it stays in
    // its slab, unused, until the host goes (a shelf is full only when malloc could not widen it).
    static void lose(void* block) {
#ifdef UMPIRE_ASAN
        std::free(block);
#else
        (void)block;
#endif
    }
    // Doubles a full shelf; false if malloc has no room for it (the shelf stays as it was).
    [[gnu::noinline]] static bool widen(Shelf& shelf) {
        const std::size_t count = static_cast<std::size_t>(shelf.top - shelf.floor);
        const std::size_t old_capacity = static_cast<std::size_t>(shelf.end - shelf.floor);
        const std::size_t capacity = old_capacity ? old_capacity * 2 : kFirstShelfSlots;
        // One slot more, below floor: the sentinel.
        void* slots = std::realloc(shelf.floor ? shelf.floor - 1 : nullptr, (capacity + 1) * sizeof(void*));
        if (!slots) return false;
        shelf.floor = static_cast<void**>(slots) + 1;
        shelf.floor[-1] = nullptr;
        shelf.top = shelf.floor + count;
        shelf.end = shelf.floor + capacity;
        return true;
    }

    // Under ASan, checks Lua's side of the contract before a block is freed or resized: the block
    // is one malloc gave (to this allocator: a small block has its class's size, a large one the
    // size Lua asked for) and it is not resting on a shelf. A wrong old_size would put a block on
    // the wrong shelf (a later taker writes past it) and a double free would hand it out twice.
    static void check_in_use(void* block, std::size_t old_size) {
#ifdef UMPIRE_ASAN
        const std::size_t expected = small(old_size) ? class_bytes(old_size) : old_size;
        const std::size_t actual = __sanitizer_get_allocated_size(block);
        const char* problem = actual != expected ? "freed or resized with a wrong old size"
                              : __asan_region_is_poisoned(block, 1) ? "freed twice (it is resting on a shelf)"
                                                                    : nullptr;
        if (!problem) return;
        std::fprintf(stderr, "LuaHost::Allocator: block %p (old size %zu, malloc size %zu) %s\n", block,
                     old_size, actual, problem);
        __sanitizer_print_stack_trace();
        std::abort();
#else
        (void)block, (void)old_size;
#endif
    }

    // Lua's allocator contract: old_size is the block's size when ptr is not NULL.
    void* resize(void* ptr, std::size_t old_size, std::size_t new_size) {
        if (!ptr) return small(new_size) ? take(new_size) : std::malloc(new_size);
        check_in_use(ptr, old_size);
        if (!small(old_size) && !small(new_size)) return std::realloc(ptr, new_size);
        if (small(old_size) && small(new_size) && size_class(old_size) == size_class(new_size)) {
            fit(ptr, new_size);
            return ptr;
        }
        void* block = small(new_size) ? take(new_size) : std::malloc(new_size);
        if (!block) return nullptr;  // the old block stays valid, as realloc leaves it
        std::memcpy(block, ptr, std::min(old_size, new_size));
        if (small(old_size)) give(ptr, old_size);
        else std::free(ptr);
        return block;
    }

    // Lua's allocator function. The two calls rule code makes most (~150 a Monte Carlo sample of
    // the ASL MG attack): a small block freed onto a shelf with room, and a new small block taken
    // from a shelf that has one, well under the cap and the note. Those are done here without a
    // call or a saved register; everything else (malloc, a resize, a full shelf, the cap, the
    // note) goes to allocate_rest, which does the same for them.
    static void* allocate(void* ud, void* ptr, std::size_t old_size, std::size_t new_size) {
        Allocator& self = *static_cast<LuaHost*>(static_cast<Game*>(ud))->alloc_;
        if (new_size == 0) {
            if (ptr && small(old_size)) {
                check_in_use(ptr, old_size);
                Shelf& shelf = self.shelves[size_class(old_size)];
                if (shelf.top != shelf.end) {
                    push(shelf, ptr, old_size);
                    self.used -= old_size;
                    return nullptr;
                }
            }
        } else if (!ptr && small(new_size) && self.used + new_size <= self.quiet_until) {
            Shelf& shelf = self.shelves[size_class(new_size)];
            if (shelf.top != shelf.floor) {
                self.used += new_size;
                return pop(shelf, new_size);
            }
        }
        return allocate_rest(ud, ptr, old_size, new_size);
    }

    [[gnu::noinline]] static void* allocate_rest(void* ud, void* ptr, std::size_t old_size, std::size_t new_size) {
        auto* self = static_cast<LuaHost*>(static_cast<Game*>(ud))->alloc_.get();
        if (new_size == 0) {
            if (ptr) {
                check_in_use(ptr, old_size);
                if (small(old_size)) self->give(ptr, old_size);
                else std::free(ptr);
                self->used -= old_size;
            }
            return nullptr;
        }
        const std::size_t old_counted = ptr ? old_size : 0;
        if (new_size > old_counted && self->used + (new_size - old_counted) > self->limit) {
            ++self->refused;
            static_cast<LuaHost*>(static_cast<Game*>(ud))->note_refused_allocation();
            return nullptr;  // LuaJIT raises "not enough memory" (LUA_ERRMEM)
        }
        void* block = self->resize(ptr, old_size, new_size);
        if (!block) {
            ++self->refused;
            isolation::note_out_of_memory();  // under the cap: the address space ran out
        }
        if (block) {
            self->used = self->used - old_counted + new_size;
            if (self->used > self->quiet_until) {
                auto* host = static_cast<LuaHost*>(static_cast<Game*>(ud));
                if (self->used > self->note_above) host->watch_memory_position();
                if (self->used > self->roomy_until) host->pace_collector(false);
            }
        }
        return block;
    }
};

// Limits of one top-level call: an instruction budget and a wall-clock deadline, checked by a
// count hook (untrusted), and the watchdog as the backstop for code that never reaches the hook
// (compiled traces when trusted, long C functions always).
// The hook is set only when it has something to do, because while any count hook is set LuaJIT's
// interpreter dispatches every bytecode through its hook check (19% of an ASL attack):
// - at the deadline, by the DeadlineSignal's timer (count 1: the next bytecode stops the call);
// - from the start, every kHookEvery instructions, when the call has an instruction budget, when
//   the journal is on (its growth from rolls and events is charged by the hook), or when no
//   deadline timer could be made;
// - from the moment Lua memory passes half the cap (the allocator sets it), every kHookEvery
//   instructions, to note the running file:line for the memory error;
// - after a memory stop, so that the stop is raised again wherever it is caught.
// The stop is sticky: once a limit fired, `stop` holds its message until the next top-level call,
// and every later hook, pcall, xpcall, coroutine.resume/wrap and C re-entry raises it again, so
// rule code cannot catch the stop and carry on.
struct LuaHost::Limits {
    static constexpr int kHookEvery = 1000;
    // How long after the deadline the sandbox's watchdog waits for the hook to stop the call
    // before it concludes the thread is stuck in C and ends the process.
    static constexpr double kWatchdogGrace = 0.1;
    std::chrono::steady_clock::time_point deadline{};
    bool has_deadline = false;
    std::uint64_t instructions = 0;
    char stop[200] = "";  // the stop message once a limit fired, "" before
    // Where the rules were running when Lua memory last stood above half the cap ("" if never
    // in this call): a memory error carries no traceback, so this is how it names file:line.
    char memory_file[200] = "";
    int memory_line = 0;
    bool memory_compiled = false;  // memory_line is the line of a compiled loop (find_caller)
    std::unique_ptr<Watchdog> watchdog;  // made on the first call with a time limit
    std::unique_ptr<DeadlineSignal> deadline_signal;  // made on the first sandboxed call with one
    bool deadline_armed = false;  // this call's deadline is on the DeadlineSignal
    bool jit_watch = false;  // under --jit, the hook is at count 1 to suspend the JIT (watch_memory_position)
};

// Runs in the middle of rule code: level 0 is the running Lua function, so luaL_where(L, 0)
// gives the author's file:line.
void LuaHost::count_hook(lua_State* L, lua_Debug* ar) {
    auto& host = LuaHost::from(L);
    auto& limits = *host.limits_;
    if (limits.stop[0]) {  // sticky: a stopped call stays stopped wherever it is caught
        lua_pushstring(L, limits.stop);
        lua_error(L);
    }
    limits.instructions += static_cast<std::uint64_t>(lua_gethookcount(L));
    // Only near the cap, so the common case costs one comparison. Under --jit, the first hook
    // after the heap passed half the cap (watch_memory_position set it to count 1) suspends the
    // JIT, so that from here on every allocation has a place (note_refused_allocation); even if
    // the heap is back under half by now, as the count of 1 must not stay.
    const bool near_cap = host.alloc_->used > host.alloc_->limit / 2;
    if (host.options_.sandbox_jit && !host.jit_suspended_ && (near_cap || limits.jit_watch)) {
        limits.jit_watch = false;
        host.suspend_jit();
        lua_sethook(L, count_hook, LUA_MASKCOUNT, Limits::kHookEvery);
    }
    if (near_cap && lua_getinfo(L, "Sl", ar) && ar->currentline > 0) {
        std::snprintf(limits.memory_file, sizeof limits.memory_file, "%s", ar->short_src);
        limits.memory_line = ar->currentline;
        limits.memory_compiled = false;
    }
    // A plain buffer: lua_error below must not skip the destructor of a C++ object.
    char problem[160] = "";
    if (!host.charge_growth()) {
        std::snprintf(problem, sizeof problem,
                      "memory limit: the journal grew past the Lua memory cap of %zu MiB (the journal counts "
                      "against it; rolls, events and citations in a loop?)",
                      host.alloc_->limit >> 20);
    } else if (host.options_.instruction_limit && limits.instructions > host.options_.instruction_limit) {
        std::snprintf(problem, sizeof problem,
                      "script stopped: ran more than %llu instructions (runaway loop?)",
                      static_cast<unsigned long long>(host.options_.instruction_limit));
    } else if (limits.has_deadline && std::chrono::steady_clock::now() > limits.deadline) {
        std::snprintf(problem, sizeof problem, "script stopped: ran longer than %gs (runaway loop?)",
                      host.options_.time_limit);
    }
    if (!problem[0]) return;
    luaL_where(L, 0);
    lua_pushstring(L, problem);
    lua_concat(L, 2);
    std::snprintf(limits.stop, sizeof limits.stop, "%s", lua_tostring(L, -1));
    lua_error(L);
}

namespace {

// Does the message start with a position ("file:12: ...", lua::split_position)? (It builds
// strings, and nothing may throw in a message handler: a failure to is read as a position, so
// the message is left as it is.) host/Sandbox.cpp's has_position is a narrower twin (the first
// colon only), kept as it is for the wrapped library functions' messages.
bool has_position(const char* text) {
    try {
        std::string file;
        int line = 0;
        return lua::split_position(text, file, line);
    } catch (const std::exception&) {
        return true;
    }
}

// If the table on top of the stack holds the function at `function` under a string key, replaces
// the table by that key and returns true; else returns false, the stack as high as it was. A
// read-only view (an empty table reading through its metatable's __index table) is searched
// through that table, which then stands in its slot. Raw reads only: this runs in the message
// handler, where no metamethod may run.
bool replace_by_key_of(lua_State* L, int function) {
    const int table = lua_gettop(L);
    if (lua_getmetatable(L, table)) {
        lua_pushliteral(L, "__index");
        lua_rawget(L, -2);
        if (lua_istable(L, -1)) lua_replace(L, table);
        lua_settop(L, table);
    }
    lua_pushnil(L);
    while (lua_next(L, table) != 0) {
        if (lua_rawequal(L, -1, function) && lua_type(L, -2) == LUA_TSTRING) {
            lua_pop(L, 1);
            lua_replace(L, table);
            return true;
        }
        lua_pop(L, 1);
    }
    return false;
}

// Pushes the name a direct call's error gives the function on top of the stack ("floor" for
// math.floor, "distance" for umpire.hex.distance: what LuaJIT names it by its field), found in the
// real libraries (the state's globals, which rule code never sees) and in umpire's tables one
// level down (umpire as the host's env at registry `env_ref` holds it); nothing, returning false,
// if none holds it.
bool push_library_name(lua_State* L, int env_ref) {
    const int function = lua_gettop(L);
    for (const char* library : {"math", "string", "table", "bit", "coroutine", static_cast<const char*>(nullptr)}) {
        if (library) lua_getglobal(L, library);
        else lua_pushvalue(L, LUA_GLOBALSINDEX);
        if (lua_istable(L, -1) && replace_by_key_of(L, function)) return true;
        lua_settop(L, function);
    }
    if (env_ref == LUA_NOREF || !lua_checkstack(L, 8)) return false;
    lua_rawgeti(L, LUA_REGISTRYINDEX, env_ref);
    if (lua_istable(L, -1)) {
        lua_pushliteral(L, "umpire");
        lua_rawget(L, -2);
        lua_remove(L, -2);
    }
    if (!lua_istable(L, -1)) {
        lua_settop(L, function);
        return false;
    }
    if (replace_by_key_of(L, function)) return true;
    const int umpire = lua_gettop(L);  // (replaced by what a view reads through)
    lua_pushnil(L);
    while (lua_next(L, umpire) != 0) {
        if (lua_istable(L, -1) && replace_by_key_of(L, function)) {
            lua_replace(L, function + 1);
            lua_settop(L, function + 1);
            return true;
        }
        lua_settop(L, umpire + 1);  // the key, for the next lua_next
    }
    lua_settop(L, function);
    return false;
}

}  // namespace

// An error raised by a C function that the function the host called reached by a tail call
// (`return math.floor('x')` in a chunk) has no place and names the function '?': LuaJIT replaced
// the caller's frame with the C function's, so the frame below it is the host's, with no line and
// no call instruction to name the callee by. (A tail call from a function that Lua code called
// leaves that code's frame below: its calling line is named, as Lua 5.1 does.) The place is then
// the line of the tail call, found by the tail-call locator in the called function's bytecode
// (host/TailCallWhere.hpp), or failing that its file; the name, the one the libraries give the
// function. Only while a call of this host runs on the main thread, whose called function is known.
void LuaHost::place_tail_called_error(lua_State* L) {
    LuaHost& host = from(L);
    lua_Debug raiser, below;
    const char* text = lua_tostring(L, 1);
    // (a stop keeps its text: the host and the worker's parent read it)
    if (L != host.L_ || host.call_depth_ <= 0 || host.stop_message() || std::strcmp(text, kNotEnoughMemory) == 0 ||
        !lua_checkstack(L, 12) || !lua_getstack(L, 1, &raiser) || !lua_getinfo(L, "S", &raiser) ||
        std::strcmp(raiser.what, "C") != 0)
        return;
    if (lua_getstack(L, 2, &below) && lua_getinfo(L, "Sl", &below) && std::strcmp(below.what, "C") != 0) {
        place_error_of_tail_call_from_lua(L, below);
        return;
    }
    if (has_position(text)) return;
    const int top = lua_gettop(L);
    std::string message = lua_tostring(L, 1);
    lua_getinfo(L, "f", &raiser);  // top + 1: the C function
    const std::string unnamed = "to '?'";
    if (const auto at = message.find(unnamed); at != std::string::npos && push_library_name(L, host.env_ref_)) {
        message.replace(at, unnamed.size(), std::string("to '") + lua_tostring(L, -1) + "'");
        lua_pop(L, 1);
    }
    message.insert(0, tail_call_place(L, top + 1));
    lua_settop(L, top);
    lua_pushlstring(L, message.data(), message.size());
    lua_replace(L, 1);
}

// The place of the tail call by which the function at stack index `running` was reached from the
// function the host's innermost call is running (it replaced that function's frame, and no frame
// below tells a place): "file:line: " of the tail call when the locator (host/TailCallWhere.hpp)
// can tell it, else "file: in a tail call: " of the function the host called, else "" (a C
// function called). Only while a call of this host runs on the main thread. Raises nothing.
std::string LuaHost::tail_call_place(lua_State* L, int running) {
    LuaHost& host = from(L);
    running = running < 0 ? lua_gettop(L) + running + 1 : running;
    if (L != host.L_ || host.call_depth_ <= 0 || !lua_checkstack(L, 8)) return "";
    const int top = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, host.called_ref_);
    lua_rawgeti(L, -1, host.call_depth_);  // top + 2: the function the host called
    std::string place;
    if (tail_call::push_called_where(L, running, top + 2)) {
        place = lua_tostring(L, -1);
    } else {
        lua_Debug called;
        lua_pushvalue(L, top + 2);
        if (lua_getinfo(L, ">S", &called) && std::strcmp(called.what, "C") != 0)
            place = std::string(called.short_src) + ": in a tail call: ";
    }
    lua_settop(L, top);
    return place;
}

// error(message, level) of rule code (the sandbox's error, host/Sandbox.cpp), whose frame `level`
// is gone: the function at `level - 1` (counted from error) was the bottom of the host's call,
// reached by a tail call from the function the host called (`return check(x)` in a chunk, check
// calling error(m, 2)). LuaJIT gives no place; the tail call's line is the best one left.
bool LuaHost::push_error_tail_caller_where(lua_State* L, int level) {
    LuaHost& host = from(L);
    lua_Debug reached, beyond;
    if (level < 2 || L != host.L_ || host.call_depth_ <= 0 || lua_getstack(L, level, &beyond) ||
        !lua_getstack(L, level - 1, &reached) || !lua_checkstack(L, 4) || !lua_getinfo(L, "f", &reached))
        return false;
    const int reached_at = lua_gettop(L);
    // (the function the host called itself, when it called error's caller directly: no tail call)
    lua_rawgeti(L, LUA_REGISTRYINDEX, host.called_ref_);
    lua_rawgeti(L, -1, host.call_depth_);
    const bool direct = lua_rawequal(L, -1, -3) != 0;
    lua_pop(L, 2);
    std::string place;
    try {  // (no C++ exception may cross the Lua frames of error's caller)
        if (!direct) place = tail_call_place(L, reached_at);
    } catch (const std::exception&) {
        place.clear();
    }
    lua_settop(L, reached_at - 1);
    if (place.empty()) return false;
    lua_pushlstring(L, place.data(), place.size());
    return true;
}

// An error raised by a C function (level 1 of the message handler) that a function Lua code called
// reached by a tail call (`return math.floor(x)` in `g`, called as `g('x')` on line 4): LuaJIT
// replaced g's frame, so the error named line 4, the line that called g, and called the function
// by the name line 4 gave it, 'g'. When the message is at that line (luaL_where of the frame
// `below`, as a C function's own errors are), the tail-call locator (host/TailCallWhere.hpp)
// finds the line of g's tail call from g's bytecode, as for a pattern bomb; the message is moved
// there and the function named as the libraries do ('floor'). Only where the tail call is rule
// code's (a file's, or of the calling chunk): a Lua front of the host's keeps the rule code's
// line. When the locator cannot tell, the message is LuaJIT's.
void LuaHost::place_error_of_tail_call_from_lua(lua_State* L, const lua_Debug& below) {
    if (below.currentline <= 0) return;
    std::string message = lua_tostring(L, 1);
    const std::string at_below = std::string(below.short_src) + ":" + std::to_string(below.currentline) + ": ";
    if (message.compare(0, at_below.size(), at_below) != 0) return;
    const int top = lua_gettop(L);
    if (!tail_call::push_rule_tail_caller_where(L, 1)) return;
    std::string place = lua_tostring(L, -1);
    lua_settop(L, top);
    message.replace(0, at_below.size(), place);
    // The name: 'g' is what the calling line called. Called as a method (`o:f(x)`), luaL_argerror
    // also counted the arguments from the method's self: "calling 'f' on bad self" is argument
    // #1 of the C function, and "#n" is #n+1.
    lua_Debug raiser;
    if (lua_getstack(L, 1, &raiser) && lua_getinfo(L, "nf", &raiser) && raiser.name && push_library_name(L, from(L).env_ref_)) {
        const std::string name = std::string("'") + lua_tostring(L, -1) + "'";
        lua_settop(L, top);
        const std::string given = std::string("'") + raiser.name + "'";
        const bool method = raiser.namewhat && std::strcmp(raiser.namewhat, "method") == 0;
        const std::string bad_self = "calling " + given + " on bad self";
        if (const auto at = message.find(bad_self, place.size()); method && at != std::string::npos) {
            message.replace(at, bad_self.size(), "bad argument #1 to " + name);
        } else if (const auto to = message.find("to " + given, place.size()); to != std::string::npos) {
            message.replace(to, given.size() + 3, "to " + name);
            const auto number = message.rfind('#', to);
            if (method && number != std::string::npos && number > place.size()) {
                const std::size_t digits = message.find(' ', number) - number - 1;
                message.replace(number + 1, digits, std::to_string(std::atoi(message.c_str() + number + 1) + 1));
            }
        }
    }
    lua_settop(L, top);
    lua_pushlstring(L, message.data(), message.size());
    lua_replace(L, 1);
}

// Message handler of every protected call: keeps the traceback on the side and leaves the
// message as Lua made it ("file:line: message").
int LuaHost::message_handler(lua_State* L) {
    if (!lua_isstring(L, 1)) {
        const char* type = luaL_typename(L, 1);
        lua_pushfstring(L, "(error object is a %s value)", type);
        lua_replace(L, 1);
    }
    // The interpreter raises a Lua stack overflow from the callee's header, where LuaJIT adds
    // no "file:line: " (its compiled code does): the message would name no place. The place is
    // the nearest frame above this handler that is at a line. That is usually level 1, the
    // function whose call overflowed; but a frame still in its header (line 0) or one rebuilt
    // from a trace exit (line -1) is at none, and then its caller is. Which of these LuaJIT
    // leaves depends on which traces it recorded, which its randomised penalties vary from run
    // to run, so only "the first frame at a line" names a place every time. (LuaJIT runs the
    // handler on the few slots it keeps past the stack's maximum: enough for this.)
    if (lua_type(L, 1) == LUA_TSTRING && std::strcmp(lua_tostring(L, 1), "stack overflow") == 0) {
        lua_Debug frame;
        for (int level = 1; level <= 4 && lua_getstack(L, level, &frame); ++level) {
            if (!lua_getinfo(L, "Sl", &frame) || frame.currentline <= 0) continue;
            lua_pushfstring(L, "%s:%d: %s", frame.short_src, frame.currentline, "stack overflow");
            lua_replace(L, 1);
            break;
        }
    }
    if (lua_type(L, 1) == LUA_TSTRING) place_tail_called_error(L);
    luaL_traceback(L, L, nullptr, 1);
    LuaHost::from(L).last_traceback_ = lua_tostring(L, -1);
    lua_pop(L, 1);
    return 1;
}

LuaHost::LuaHost(HostOptions options)
    : Game(options.seed), options_(std::move(options)), alloc_(std::make_unique<Allocator>()),
      limits_(std::make_unique<Limits>()) {
    alloc_->limit = options_.memory_limit;
    alloc_->update_quiet_until();
    set_folding(options_.fold);
    L_ = lua_newstate(&Allocator::allocate, static_cast<Game*>(this));
    if (!L_) {
        // Not the case on Debian 12's LuaJIT (GC64); kept so a different build fails loudly.
        throw Error("LuaJIT refused a custom allocator (lua_newstate returned NULL); the memory "
                    "cap cannot be enforced with this LuaJIT build");
    }
    // LuaJIT's default pause, read by setting one (there is no getter); then the roomy pace.
    default_pause_ = lua_gc(L_, LUA_GCSETPAUSE, kRoomyPause);
    default_step_mul_ = lua_gc(L_, LUA_GCSETSTEPMUL, kRoomyStepMul);
    pace_collector(true);
    luaL_openlibs(L_);
    tail_call::make_locator(L_);  // before the sandbox: it reads the real debug, jit.util and string
    // Under --jit a runaway compiled loop is stopped by the worker's kill, not the hook: the
    // traces' lines let the kill name the loop's line (TraceLines.hpp). Before the sandbox too.
    if (options_.sandbox_jit && !options_.trusted) traces_recorded_ = trace_lines::attach(L_);
    sandbox::init(L_, options_.trusted, options_.trusted || options_.sandbox_jit);

    lua_newtable(L_);
    state_ref_ = luaL_ref(L_, LUA_REGISTRYINDEX);
    lua_pushcfunction(L_, message_handler);
    message_handler_ref_ = luaL_ref(L_, LUA_REGISTRYINDEX);
    lua_newtable(L_);
    called_ref_ = luaL_ref(L_, LUA_REGISTRYINDEX);

    // Generation 0: no rulesets, an env with the API and empty data/rules.
    push_new_env();
    commit_env(lua_gettop(L_));
    lua_pop(L_, 1);
}

LuaHost::~LuaHost() {
    clear_extensions();  // they hold Lua references
    if (traces_recorded_) trace_lines::forget(L_);
    if (L_) lua_close(L_);
}

void LuaHost::load_chunk(const std::string& code, const std::string& chunkname, int env_index) {
    if (env_index < 0) env_index = lua_gettop(L_) + env_index + 1;
    // Mode "t": text only; precompiled bytecode can break the VM's safety assumptions. Said here
    // with the place: LuaJIT's own refusal ("attempt to load chunk with wrong mode") names none.
    if (!code.empty() && code[0] == '\x1b') {
        const std::string place = chunkname.empty() || (chunkname[0] != '@' && chunkname[0] != '=') ? chunkname : chunkname.substr(1);
        throw ScriptError(place + ":1: precompiled Lua bytecode (its first byte is ESC, 0x1B) is refused: rules and "
                                  "scripts are loaded as source text only",
                          place, 1);
    }
    if (luaL_loadbufferx(L_, code.data(), code.size(), chunkname.c_str(), "t") != 0)
        throw lua::to_script_error(L_, LUA_ERRSYNTAX);
    if (!options_.trusted && !options_.sandbox_jit) {
        // The chunk and every function nested in it stay interpreted, so the count hook sees
        // every loop (compiled traces never call hooks).
        luaJIT_setmode(L_, -1, LUAJIT_MODE_ALLFUNC | LUAJIT_MODE_OFF);
    }
    if (env_index == 0) push_env();
    else lua_pushvalue(L_, env_index);
    lua_setfenv(L_, -2);
}

void LuaHost::call(int nargs, int nresults) {
    const int base = lua_gettop(L_) - nargs;  // the function's slot
    if (unusable_) {
        lua_settop(L_, base - 1);
        throw ScriptError(unusable_why_);
    }
    // The stack becomes [function, handler, function, args...]: the handler's closure, made once
    // (lua_pushcfunction makes a new one each time), and below it the function called, kept:
    // two errors can arrive with no readable place, a memory error in compiled code (under --jit
    // and --trusted: note_refused_allocation) and a stack overflow that left no room for the
    // message handler's own frame (LUA_ERRERR: see message_handler), and then it is named
    // instead. (Kept on every call, where knowing which call will fail would cost more.) With no
    // arguments (an odds worker's sample) the handler and the copy go on top, with no moves.
    const int handler = base + 1;
    lua_rawgeti(L_, LUA_REGISTRYINDEX, message_handler_ref_);
    if (nargs > 0) lua_insert(L_, handler);
    lua_pushvalue(L_, base);
    if (nargs > 0) lua_insert(L_, handler + 1);
    const bool outer = call_depth_++ == 0;
    if (outer) {
        call_frame_ = __builtin_frame_address(0);
        // (the top of the stack a crash handler searches for the trace it crashed in, --jit)
        if (traces_recorded_) trace_lines::note_call_frame(call_frame_);
        if (jit_suspended_ && alloc_->used <= alloc_->limit / 2) {
            luaJIT_setmode(L_, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_ON);
            jit_suspended_ = false;
        }
        last_traceback_.clear();
        c_calls() = 0;
        limits_->instructions = 0;
        limits_->stop[0] = '\0';
        limits_->memory_file[0] = '\0';
        limits_->memory_line = 0;
        limits_->memory_compiled = false;
        limits_->jit_watch = false;
        limits_->has_deadline = options_.time_limit > 0;
        // The clock is read only for a call that has a deadline (an odds worker without
        // --timeout calls once a sample).
        if (limits_->has_deadline)
            limits_->deadline = std::chrono::steady_clock::now() +
                                std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(options_.time_limit));
        if (isolation::in_worker()) {
            // The chunk being called is the last known position if the worker dies in it. Its
            // name is looked up again only for another function than the last call's (an odds
            // worker calls the same chunk once a sample); the host holds a reference to that
            // function, so no other one can take its address meanwhile.
            const void* function = lua_topointer(L_, handler + 1);
            if (function != where_function_) {
                lua_Debug ar;
                lua_pushvalue(L_, handler + 1);
                where_ = lua_getinfo(L_, ">S", &ar) ? std::string(ar.short_src) + ":" : std::string();
                lua_pushvalue(L_, handler + 1);
                if (where_ref_ != LUA_NOREF) luaL_unref(L_, LUA_REGISTRYINDEX, where_ref_);
                where_ref_ = luaL_ref(L_, LUA_REGISTRYINDEX);
                where_function_ = function;
            }
            if (!where_.empty()) isolation::note_where(where_.c_str());
        }
        if (limits_->has_deadline) {
            if (!limits_->watchdog) limits_->watchdog = std::make_unique<Watchdog>();
            limits_->watchdog->arm(options_.time_limit, options_.trusted ? 0.0 : Limits::kWatchdogGrace,
                                   options_.trusted);
        }
        if (!options_.trusted) start_limits();
        if (alloc_->roomy_until == SIZE_MAX && alloc_->used <= roomy_heap_bytes()) pace_collector(true);
    }
    // The function called, for the message handler, by depth (place_tail_called_error): stored
    // only when another than the last at this depth (an odds worker calls one chunk a sample).
    // The table holds it, so no other function can take its address meanwhile.
    if (called_.size() < static_cast<std::size_t>(call_depth_)) called_.resize(call_depth_, nullptr);
    if (const void* function = lua_topointer(L_, base); called_[call_depth_ - 1] != function) {
        lua_rawgeti(L_, LUA_REGISTRYINDEX, called_ref_);
        lua_pushvalue(L_, base);
        lua_rawseti(L_, -2, call_depth_);
        lua_pop(L_, 1);
        called_[call_depth_ - 1] = function;
    }
    const int status = lua_pcall(L_, nargs, nresults, handler);
    if (outer) {
        if (traces_recorded_) trace_lines::note_call_frame(nullptr);
        if (limits_->has_deadline) limits_->watchdog->disarm();
        if (!options_.trusted) stop_limits();
    }
    --call_depth_;
    if (status == 0 && nresults == 1) {
        // (the usual call: its one result put in the function's slot, in two calls where the
        // moves below make two shifts of the stack)
        lua_replace(L_, base);
        lua_settop(L_, base);
        return;
    }
    lua_remove(L_, handler);
    // The function kept, named for a memory error that has no place: its file, and the message's
    // prefix. A C function has no file to name.
    std::string called_file, called;
    if (status != 0) {
        lua_Debug ar;
        lua_pushvalue(L_, base);
        if (lua_getinfo(L_, ">S", &ar) && std::strcmp(ar.what, "C") != 0) {
            called_file = ar.short_src;
            called = called_file + ": " +
                     (ar.linedefined > 0 ? "in the function defined at line " + std::to_string(ar.linedefined) + ": "
                                         : std::string());
        }
    }
    lua_remove(L_, base);
    if (status == 0) return;
    // A failed call may leave garbage holding charged C++ memory (distributions refused at the
    // cap): give it back now, so the host is usable at once.
    if (outer) collect_garbage();
    // A memory error re-raised by the sandbox's pcall arrives as an ordinary error.
    const char* text = lua_tostring(L_, -1);
    if (status == LUA_ERRMEM || (text && std::string(text) == kNotEnoughMemory)) {
        lua_pop(L_, 1);
        collect_garbage();  // give the heap back so the host stays usable
        const std::string file = limits_->memory_file;
        // The journal's C++ memory counts against the cap (Game::charge_growth): when it is what
        // filled the cap, say so, or the author looks for a growing table that is not there.
        const std::size_t journal = growing_bytes ? *growing_bytes : 0;
        const std::string why = journal > options_.memory_limit / 4
            ? " (the journal holds ~" + std::to_string(journal >> 20) + " MiB of it: entries made in a loop?)"
            : charged_ > options_.memory_limit / 4
            ? " (~" + std::to_string(charged_ >> 20) + " MiB of it is C++ memory kept for the rules: "
              "distributions, subscriptions, odds tallies, chain folds; a value that never repeats?)"
            : " (a table or string growing without end?)";
        // The line of a compiled loop is where the loop begins, not the line that allocated.
        const std::string compiled = limits_->memory_compiled && !file.empty()
            ? "; it was running code compiled under --jit for the loop at this line (the allocation is in it or in a function it calls)"
            : "";
        const std::string place = !file.empty() ? file + ":" + std::to_string(limits_->memory_line) + ": " : called;
        throw ScriptError(place + "memory limit: the rules used more than " + std::to_string(options_.memory_limit >> 20) +
                              " MiB of Lua memory" + why + compiled,
                          file.empty() ? called_file : file,
                          file.empty() ? 0 : limits_->memory_line);
    }
    // No handler ran (LUA_ERRERR), so the overflow's message is LuaJIT's bare one: the function
    // called is the nearest place known.
    if (status == LUA_ERRERR && text && std::strcmp(text, "stack overflow") == 0 && !called.empty()) {
        lua_pop(L_, 1);
        throw ScriptError(called + "stack overflow (a recursion too deep to leave room for naming its line)",
                          called_file, 0);
    }
    throw lua::to_script_error(L_, status, options_.traceback ? last_traceback_ : std::string());
}

// The hooks of a sandboxed top-level call (see Limits): the deadline on the timer, and the
// periodic hook from the start only when something needs it.
void LuaHost::start_limits() {
    Limits& limits = *limits_;
    limits.deadline_armed = false;
    if (limits.has_deadline) {
        if (!limits.deadline_signal) limits.deadline_signal = std::make_unique<DeadlineSignal>(L_, count_hook);
        limits.deadline_armed = limits.deadline_signal->usable() && limits.deadline_signal->arm(limits.deadline);
    }
    const bool journal_grows = growing_bytes && extension<GameLog>().journaling;
    const bool near_cap = alloc_->used > alloc_->limit / 2;
    const bool periodic =
        options_.instruction_limit || journal_grows || near_cap || (limits.has_deadline && !limits.deadline_armed);
    if (periodic) lua_sethook(L_, count_hook, LUA_MASKCOUNT, Limits::kHookEvery);
    // Under --jit the periodic hook may not run for long (a compiled loop runs no interpreted
    // instruction): the allocator's watch sets it to count 1 (watch_memory_position).
    if ((!periodic && limits.deadline_armed) || (options_.sandbox_jit && !jit_suspended_)) {
        alloc_->note_above = alloc_->limit / 2;
        alloc_->update_quiet_until();
    }
}

void LuaHost::stop_limits() {
    // Disarmed first: from here on a signal sets no hook, so the one cleared below stays cleared.
    if (limits_->deadline_armed) limits_->deadline_signal->disarm();
    limits_->deadline_armed = false;
    alloc_->note_above = SIZE_MAX;
    alloc_->update_quiet_until();
    if (lua_gethook(L_)) lua_sethook(L_, nullptr, 0, 0);
}

// Called by the allocator (inside an allocation, on the Lua thread) once Lua memory passes half
// the cap during a call that ran without the periodic hook: from now on the hook notes file:line
// every kHookEvery instructions, as it did from the start before. lua_sethook may be called
// anywhere, as from a signal handler (LuaJIT's lj_dispatch.c says so).
// Under --jit the hook runs at the very next instruction the interpreter runs (count 1: a
// compiled loop returns to the interpreter only at its trace exits, a few instructions each), and
// suspends the JIT there (suspend_jit), then goes on every kHookEvery instructions.
void LuaHost::watch_memory_position() {
    alloc_->note_above = SIZE_MAX;
    alloc_->update_quiet_until();
    if (options_.sandbox_jit && !jit_suspended_) {
        limits_->jit_watch = true;
        lua_sethook(L_, count_hook, LUA_MASKCOUNT, 1);
    } else if (!lua_gethook(L_)) lua_sethook(L_, count_hook, LUA_MASKCOUNT, Limits::kHookEvery);
}

// A compiled trace keeps the running frames in registers and writes them back only when it
// exits (to raise an error from a trace, LuaJIT itself first leaves it through a side exit that
// writes them back), so while one runs the debug API would walk a stale frame, and the place of an
// allocation it makes cannot be read safely. Once the heap is past half the cap under --jit, the count hook, which runs only in
// the interpreter (never inside a trace), flushes every trace and turns the compiler off: from
// then on nothing runs compiled, so note_refused_allocation may read the frames as it does
// without --jit, and the hook's own note is exact. jit.flush() does the same from rule code in
// LuaJIT; the C stack under a hook holds no compiled code (traces call no C function that calls
// back into Lua: the sandbox has no FFI callbacks, and the host's FFI fast paths call none), so
// no return address points into the machine code freed. The compiler is back on at the next
// top-level call that starts with the heap below half the cap (LuaHost::call).
// Called from the count hook, which may run while LuaJIT records a trace: safe, because
// luaJIT_setmode aborts any recording before it changes the engine ("Abort recording on any
// state change", lj_dispatch.c), so the flush never pulls a trace from under the recorder.
void LuaHost::suspend_jit() {
    luaJIT_setmode(L_, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_FLUSH);
    luaJIT_setmode(L_, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_OFF);
    jit_suspended_ = true;
}

// Called by the allocator (on the Lua thread) when it refuses an allocation past the cap: notes
// the file:line of the innermost Lua function running, for the memory error. The count hook notes
// one only every kHookEvery instructions once the heap is past half the cap, so a single
// allocation that jumps past the cap from below half (`("x"):rep(3e8)`, a concatenation) had none,
// and its error named no place. The allocator is not told which thread allocates, and LuaJIT keeps
// the running one in its global state, which its API does not show; so the sandbox's
// coroutine.resume says which (Resuming), and its frames are read first: the main thread's
// innermost Lua line is then that of the resume. (A coroutine whose own frames have no line, such
// as coroutine.wrap(string.rep), is placed at the resume.) Only while rule code runs in the
// interpreter: a compiled trace does not keep its frames written back, so the debug API is not
// read there (--jit until suspend_jit, --trusted, whose coroutine library is Lua's own; the
// error names the function the host called instead, LuaHost::call).
void LuaHost::note_refused_allocation() {
    if (call_depth_ == 0 || options_.trusted) return;
    if (options_.sandbox_jit && !jit_suspended_) {
        // Compiled code keeps its place in registers, not in the Lua stack's frames, so the
        // frames are not read; but a trace that grows a table or makes a string calls LuaJIT's C
        // helpers, and the return address into it names its loop (trace_lines::find_caller).
        char where[200];
        if (!traces_recorded_ || !trace_lines::find_caller(L_, call_frame_, where, sizeof where)) return;
        // "file:line:", the file's name perhaps holding colons itself
        std::string text = where;
        if (!text.empty() && text.back() == ':') text.pop_back();
        const std::size_t colon = text.rfind(':');
        if (colon == std::string::npos) return;
        const int line = std::atoi(text.c_str() + colon + 1);
        if (line <= 0) return;
        std::snprintf(limits_->memory_file, sizeof limits_->memory_file, "%s", text.substr(0, colon).c_str());
        limits_->memory_line = line;
        limits_->memory_compiled = true;
        return;
    }
    lua_Debug ar;
    for (lua_State* thread : {running_, L_}) {
        for (int level = 0; thread && lua_getstack(thread, level, &ar); ++level) {
            if (lua_getinfo(thread, "Sl", &ar) && ar.currentline > 0) {
                std::snprintf(limits_->memory_file, sizeof limits_->memory_file, "%s", ar.short_src);
                limits_->memory_line = ar.currentline;
                limits_->memory_compiled = false;
                return;
            }
        }
    }
}

LuaHost::Resuming::Resuming(lua_State* co) : host_(LuaHost::from(co)), previous_(host_.running_) { host_.running_ = co; }
LuaHost::Resuming::~Resuming() { host_.running_ = previous_; }

// The collector's pace. LuaJIT starts a collection cycle once the heap reaches `pause` percent of
// what the last cycle left alive, and every cycle marks all of that: the loaded rules, ~0.5 MB for
// asl. At LuaJIT's default of 200% an odds worker, whose rules stay alive while each sample makes
// a few kilobytes of garbage, marked the whole ruleset every few dozen samples: ~9% of the
// instructions of an ASL MG attack sample. While the heap is small (roomy_heap_bytes) the pause is
// kRoomyPause instead: fewer cycles, the same garbage swept. The allocator puts the default back
// the moment the heap grows past that size, so a cycle ends with the roomy pause only with a heap
// of at most roomy_heap_bytes, and the next starts by kRoomyPause% of that: far under the cap, and
// a heap that nears the cap is collected at LuaJIT's own pace. A top-level call starting with the
// heap small again restores the roomy pace. lua_gc(LUA_GCSETPAUSE) only stores the number, so the
// allocator may call this in the middle of an allocation.
//
// The step multiplier goes with it: a cycle runs in steps of stepmul x 10 bytes' worth of marking
// or sweeping, each taken when the rules have allocated another KiB. At LuaJIT's 200% a cycle of
// the MG attack's few-MB heap is spread over some 1,500 steps between the rules' allocations, and
// every step walks a stretch of the heap that has left the cache since the last (the sweep alone
// was 13% of a sample's time, at the one load that follows the list of objects). kRoomyStepMul
// does the same work in steps a hundred times longer: the MG attack sample 3.01 -> 2.65 us and
// the fold bench's MG fire group 114-119 -> 106-107 us (docs/performance.md, session 32, h3),
// with ~1% more instructions. A step stays short (at most ~200 KB of the heap, well under a
// millisecond: a time limit's stop is not held up by it), and the heap past roomy_heap_bytes is
// stepped at LuaJIT's default again. Like the pause, LUA_GCSETSTEPMUL only stores the number.
void LuaHost::pace_collector(bool roomy) {
    lua_gc(L_, LUA_GCSETPAUSE, roomy ? kRoomyPause : default_pause_);
    lua_gc(L_, LUA_GCSETSTEPMUL, roomy ? kRoomyStepMul : default_step_mul_);
    alloc_->roomy_until = roomy ? roomy_heap_bytes() : SIZE_MAX;
    alloc_->update_quiet_until();
}

std::size_t LuaHost::roomy_heap_bytes() const {
    return std::min(kRoomyHeapBytes, options_.memory_limit / kRoomyHeapShareOfCap);
}

const char* LuaHost::stop_message() const { return limits_->stop[0] ? limits_->stop : nullptr; }

void LuaHost::note_memory_stop() {
    std::snprintf(limits_->stop, sizeof limits_->stop, "%s", kNotEnoughMemory);
    // Every later bytecode raises the stop again, wherever rule code catches it.
    if (!options_.trusted && call_depth_ > 0) lua_sethook(L_, count_hook, LUA_MASKCOUNT, 1);
}

int LuaHost::raise_if_stopped(lua_State* L, int status) {
    LuaHost& host = from(L);
    if (status == LUA_ERRMEM) host.note_memory_stop();
    if (const char* stop = host.stop_message()) {
        lua_pushstring(L, stop);
        return lua_error(L);
    }
    return 0;
}

std::uint64_t LuaHost::refused_allocations(lua_State* L) { return from(L).alloc_->refused; }

void LuaHost::note_c_entry(lua_State* L, const char* what) {
    LuaHost& host = from(L);
    if (!host.limits_->watchdog) return;
    // The place is the running function's caller, passing over the host's Lua fronts (add_front)
    // to the rule code that called them.
    int level = 1;
    for (lua_Debug ar; !host.fronts_.empty() && lua_getstack(L, level, &ar) && lua_getinfo(L, "S", &ar) &&
                       std::find(host.fronts_.begin(), host.fronts_.end(), ar.source) != host.fronts_.end();)
        ++level;
    if (level > 1 || !tail_call::push_caller_where(L)) luaL_where(L, level);
    // No frame below: reached by a tail call from the function the host called (`return
    // umpire.dice.dist(e)` in a chunk): the line of that tail call, as an error there is placed.
    lua_Debug running;
    if (lua_objlen(L, -1) == 0 && lua_getstack(L, 0, &running) && lua_getinfo(L, "f", &running)) {
        std::string place;
        try {  // (no C++ exception may cross the Lua frames of the C function's caller)
            place = tail_call_place(L, -1);
        } catch (const std::exception&) {
            place.clear();
        }
        lua_pop(L, 1);
        if (!place.empty()) {
            lua_pop(L, 1);
            lua_pushlstring(L, place.data(), place.size());
        }
    }
    lua_pushfstring(L, "in %s:", what);
    lua_concat(L, 2);
    host.limits_->watchdog->set_where(lua_tostring(L, -1));
    lua_pop(L, 1);
}

void LuaHost::push_env() { lua_rawgeti(L_, LUA_REGISTRYINDEX, env_ref_); }
void LuaHost::push_state() { lua_rawgeti(L_, LUA_REGISTRYINDEX, state_ref_); }

// The registry's table of the API modules opened once per state, as read-only views, by name
// (bindings/api_modules.hpp, ApiModule::per_state).
constexpr const char* kSharedApiKey = "umpire.shared_api_views";

// Makes umpire.<module> a read-only view, and first each plain table it holds (umpire.dice.classic):
// a view guards only its own fields, and a table read through it is the real, writable one. For
// the modules shared by every load generation, a write there would outlive the generation that
// made it; within one, it would change the functions of every ruleset loaded with it. (A field
// that has a metatable is a view already, or an object that guards itself.)
void make_module_read_only(lua_State* L, int umpire, const char* module) {
    lua::StackCheck check(L, 0);
    const std::string display = std::string("umpire.") + module;
    lua_getfield(L, umpire, module);
    const int real = lua_gettop(L);
    std::vector<std::string> nested;
    if (lua_istable(L, real)) {
        lua_pushnil(L);
        while (lua_next(L, real) != 0) {
            if (lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TTABLE) {
                if (lua_getmetatable(L, -1)) lua_pop(L, 1);
                else nested.emplace_back(lua_tostring(L, -2));
            }
            lua_pop(L, 1);
        }
    }
    for (const auto& field : nested) sandbox::make_read_only(L, real, field.c_str(), (display + "." + field).c_str());
    lua_pop(L, 1);
    sandbox::make_read_only(L, umpire, module, display.c_str());
}

void LuaHost::push_new_env() {
    lua::StackCheck check(L_, 1);
    sandbox::push_env(L_);
    const int env = lua_gettop(L_);
    // umpire.dice, hex, table and bus hold C functions and closures over the game only: they are
    // opened and made read-only views once per state, and every generation's `umpire` takes the
    // same views (a reload made them anew: about 4% of its instructions and a fifth of the Lua
    // memory a reload after a module edit allocates, garbage for the collector). Rule code cannot
    // change them (read-only views of tables no env holds), so what one generation sees is what
    // a fresh one would.
    lua_getfield(L_, LUA_REGISTRYINDEX, kSharedApiKey);
    const bool first = !lua_istable(L_, -1);
    if (first) {
        lua_pop(L_, 1);
        lua_newtable(L_);
    }
    const int shared = lua_gettop(L_);
    lua_newtable(L_);
    const int umpire = lua_gettop(L_);
    open_api_modules(L_, first ? 0 : shared);
    push_args();
    lua_setfield(L_, umpire, "args");
    // The function modules are shared by every ruleset of the generation: read-only views. The
    // tables in data, rules and state are the rulesets' own and stay writable. umpire.args is the
    // command line's, so no script may change what the next one reads. (umpire.odds was left out
    // until session 32: `umpire.odds.chain = f` in one ruleset changed the chains of the others.)
    for (const char* module : {"hooks", "journal", "odds", "args"}) make_module_read_only(L_, umpire, module);
    if (first) {
        for (const char* module : per_state_api_modules()) {
            make_module_read_only(L_, umpire, module);
            lua_getfield(L_, umpire, module);
            lua_setfield(L_, shared, module);
        }
        lua_pushvalue(L_, shared);
        lua_setfield(L_, LUA_REGISTRYINDEX, kSharedApiKey);
    }
    // umpire itself too: its functions (cite, note, result, where, base) write the journal's
    // citations, so no ruleset may replace them under another. Host code writes through
    // sandbox::push_writable (umpire.ruleset).
    lua_setfield(L_, env, "umpire");
    lua_settop(L_, env);
    sandbox::make_read_only(L_, env, "umpire", "umpire");
}

void LuaHost::push_args() {
    lua::StackCheck check(L_, 1);
    lua_createtable(L_, 0, static_cast<int>(options_.args.size()));
    for (const auto& [name, value] : options_.args) {
        if (const bool* b = std::get_if<bool>(&value)) lua_pushboolean(L_, *b);
        else if (const double* x = std::get_if<double>(&value)) lua_pushnumber(L_, *x);
        else lua_pushstring(L_, std::get<std::string>(value).c_str());
        lua_setfield(L_, -2, name.c_str());
    }
}

void LuaHost::push_script_env() {
    lua::StackCheck check(L_, 1);
    sandbox::push_env(L_);
    push_env();
    lua_getfield(L_, -1, "umpire");
    lua_setfield(L_, -3, "umpire");
    lua_pop(L_, 1);
}

void LuaHost::commit_env(int env_index) {
    lua_pushvalue(L_, env_index);
    if (env_ref_ != LUA_NOREF) luaL_unref(L_, LUA_REGISTRYINDEX, env_ref_);
    env_ref_ = luaL_ref(L_, LUA_REGISTRYINDEX);
    if (script_env_ref_ == LUA_NOREF) {
        push_script_env();
        script_env_ref_ = luaL_ref(L_, LUA_REGISTRYINDEX);
    }
    lua_rawgeti(L_, LUA_REGISTRYINDEX, script_env_ref_);
    lua_getfield(L_, env_index, "umpire");
    lua_setfield(L_, -2, "umpire");
    lua_pop(L_, 1);
}

void LuaHost::run_file(const fs::path& file) {
    const std::string code = read_file(file, kMaxCodeBytes, "a script");
    const std::string shown = display_path(file);  // the chunk's name and the data check's label
    const int top = lua_gettop(L_);
    try {
        push_script_env();
        load_chunk(code, "@" + shown, -1);
        lua_remove(L_, -2);
        call(0, 0);
    } catch (...) {
        lua_settop(L_, top);
        DataGuard::restore_quietly(*this);
        throw;
    }
    DataGuard::check(*this, shown);
}

int LuaHost::run_string(const std::string& code, const std::string& label, bool keep_results) {
    const int top = lua_gettop(L_);
    try {
        lua_rawgeti(L_, LUA_REGISTRYINDEX, script_env_ref_);
        load_chunk(code, label, -1);
        lua_remove(L_, -2);
        call(0, keep_results ? LUA_MULTRET : 0);
        DataGuard::check(*this, label.substr(1));
    } catch (...) {
        lua_settop(L_, top);
        DataGuard::restore_quietly(*this);
        throw;
    }
    return lua_gettop(L_) - top;
}

// A load generation: everything is loaded into a new env; only complete success replaces the
// committed env. The state table is shared, so a module that changed it at load time and then
// failed is undone from a canonical-JSON snapshot taken before the load.
void LuaHost::load_generation(const std::function<void(int env_index)>& fill) {
    // Kept while the rules load, whose module bodies can grow memory: charged while kept.
    const KeptState kept(*this, "kept while the rules load to put it back if the load fails");
    const std::string& snapshot = kept.text();
    const int top = lua_gettop(L_);
    registry().begin();
    try {
        protect([&] {
            push_new_env();
            fill(lua_gettop(L_));
            commit_env(lua_gettop(L_));
        });
        lua_settop(L_, top);
        registry().commit();
    } catch (const std::exception&) {
        lua_settop(L_, top);
        registry().rollback();
        if (state_json() != snapshot) set_state_json(snapshot);
        collect_garbage();
        throw;
    }
}

// Host code between protected calls (building envs, converting YAML into tables, setting
// fields) uses the Lua API, and any API call that allocates can raise a Lua error: the memory
// cap, mostly. Outside a protected call that error has no catcher: it unwound as a foreign
// exception into the command's C++ frames and ended in std::terminate. So host work that touches
// Lua runs here, inside lua_cpcall: a Lua error stops at the cpcall and becomes a ScriptError;
// a C++ exception is caught inside (only std::exception: LuaJIT's own errors are foreign
// exceptions that catch (...) would swallow) and rethrown after the cpcall has returned, so no
// C++ exception ever unwinds LuaJIT frames.
void LuaHost::protect(const std::function<void()>& body) {
    struct Job {
        const std::function<void()>* body;
        std::exception_ptr failure;
        int top;
    } job{&body, nullptr, lua_gettop(L_)};
    const auto run = [](lua_State* L) -> int {
        auto* job = static_cast<Job*>(lua_touserdata(L, 1));
        lua_pop(L, 1);
        try {
            (*job->body)();
        } catch (const std::exception&) {
            job->failure = std::current_exception();
        }
        return 0;
    };
    const int status = lua_cpcall(L_, run, &job);
    if (status != 0) {
        lua_settop(L_, job.top + 1);  // the error value
        if (status == LUA_ERRMEM || (lua_tostring(L_, -1) && std::string(lua_tostring(L_, -1)) == kNotEnoughMemory)) {
            lua_settop(L_, job.top);
            collect_garbage();
            throw ScriptError("memory limit: the rules used more than " + std::to_string(options_.memory_limit >> 20) +
                              " MiB of Lua memory while loading (a data file too large, or a YAML alias bomb?)");
        }
        throw lua::to_script_error(L_, status);
    }
    if (job.failure) std::rethrow_exception(job.failure);
}

std::string LuaHost::state_json() {
    push_state();
    try {
        auto json = game_state::to_canonical_json(L_, -1, this);
        lua_pop(L_, 1);
        return json;
    } catch (...) {
        lua_pop(L_, 1);
        throw;
    }
}

LuaHost::KeptState::KeptState(LuaHost& host, const std::string& why) : host_(host), text_(host.state_json()) {
    if (text_.size() <= game_state::kUnchargedText) return;
    if (!host_.charge_memory(text_.size()))
        throw ScriptError("memory limit: umpire.state as JSON (~" + std::to_string((text_.size() >> 20) + 1) + " MiB), " +
                          why + ", would pass the Lua memory cap of " +
                          std::to_string(host_.options_.memory_limit >> 20) + " MiB");
    charged_ = text_.size();
}

LuaHost::KeptState::~KeptState() { host_.release_memory(charged_); }

std::uint64_t LuaHost::state_hash() { return bus::fnv1a_64(state_json()); }

void LuaHost::save_state(const fs::path& file) {
    const std::string json = state_json();
    std::ofstream out(file, std::ios::binary);
    if (!out) throw Error("cannot write game state to " + display_path(file));
    out << json << '\n';
}

void LuaHost::load_state(const fs::path& file) { set_state_json(read_file(file)); }

void LuaHost::set_state_json(const std::string& json) {
    // A journal's state is untrusted input, and converting it allocates Lua memory: protected.
    protect([&] {
        push_state();
        game_state::replace_from_json(L_, -1, json);
    });
}

void LuaHost::print(const std::string& line) {
    if (holding_output_) {
        const std::size_t bytes = sizeof(std::string) + line.size();
        if (!charge_memory(bytes))
            throw ScriptError("memory limit: print() while the rules load keeps its output until the load ends, and "
                              "this line would pass the Lua memory cap");
        held_output_bytes_ += bytes;
        held_output_.push_back(line);
        return;
    }
    if (options_.print) options_.print(line);
    else std::cout << line << std::endl;
}

void LuaHost::hold_output() { holding_output_ = true; }

void LuaHost::release_output(bool show) {
    holding_output_ = false;
    std::vector<std::string> lines;
    lines.swap(held_output_);
    release_memory(held_output_bytes_);
    held_output_bytes_ = 0;
    if (show)
        for (const auto& line : lines) print(line);
}

std::size_t LuaHost::memory_used() const { return alloc_->used; }

// C++ memory charged against the Lua cap. LuaJIT's collector paces itself by the Lua heap alone and
// has no emergency collection: as charges fill the cap, the room left for Lua shrinks while garbage
// waits for the next cycle, and whichever grows next was refused, the charge with its own error
// naming the structure or a Lua allocation with the generic "more than N MiB of Lua memory", by the
// chance of where a cycle fell. So once a charge would leave less than a sixteenth of the cap free,
// the garbage is collected first (again only after a quarter of that sixteenth of growth, so a fold
// creeping along the cap does not collect at every state): what is refused then is what holds the memory.
bool LuaHost::charge_memory(std::size_t bytes) {
    const std::size_t margin = alloc_->limit / 16;
    const bool over_cap = alloc_->used + bytes > alloc_->limit;
    if (alloc_->used + bytes + margin <= alloc_->limit) {
        collected_near_cap_at_ = 0;
    } else if (over_cap || alloc_->used > collected_near_cap_at_ + margin / 4) {
        collect_garbage();  // unreachable distributions release their charge too
        collected_near_cap_at_ = alloc_->used;
        if (alloc_->used + bytes > alloc_->limit) return false;
    }
    alloc_->used += bytes;
    charged_ += bytes;
    return true;
}

void LuaHost::release_memory(std::size_t bytes) {
    alloc_->used -= bytes;
    charged_ -= bytes;
}

void LuaHost::with_raised_cap(std::size_t extra, const std::function<void()>& body) {
    // quiet_until follows the limit both ways: the allocator's fast path trusts it alone.
    struct Lower {
        Allocator& alloc;
        std::size_t extra;
        ~Lower() {
            alloc.limit -= extra;
            alloc.update_quiet_until();
        }
    } lower{*alloc_, extra};
    alloc_->limit += extra;
    alloc_->update_quiet_until();
    body();
}

void LuaHost::collect_garbage() {
    with_raised_cap(SIZE_MAX - alloc_->limit, [this] { lua_gc(L_, LUA_GCCOLLECT, 0); });
}

void LuaHost::make_unusable(const char* why) noexcept {
    unusable_ = true;
    try {
        unusable_why_ = why;
    } catch (const std::bad_alloc&) {
        unusable_why_.clear();  // set again, with room, by the next make_unusable
    }
    if (unusable_why_.empty())
        try {
            unusable_why_ = "this host can no longer be used (a memory stop left it in an unknown state)";
        } catch (const std::bad_alloc&) {
        }
}

std::string LuaHost::display_path(const fs::path& file) {
    std::error_code ec;
    const fs::path absolute = fs::weakly_canonical(fs::absolute(file, ec), ec);
    if (ec) return file.generic_string();  // (a name too long for a path showed as "")
    const fs::path cwd = fs::current_path(ec);
    const fs::path relative = absolute.lexically_relative(cwd);
    if (!relative.empty() && *relative.begin() != "..") return relative.generic_string();
    return absolute.generic_string();
}

std::string LuaHost::read_file(const fs::path& file, std::size_t max_bytes, const char* what) {
    std::error_code ec;
    const auto size = fs::file_size(file, ec);
    if (!ec && size > max_bytes) {
        const auto mib = [](std::uintmax_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20); };
        throw ScriptError(display_path(file) + ":1:1: " + mib(size) + " MiB; " + what + " may hold at most " +
                              mib(max_bytes) + " MiB",
                          display_path(file), 1);
    }
    return read_file(file);
}

std::string LuaHost::read_file(const fs::path& file) {
    // A worker that closes its files after loading answers a later load from what it kept
    // (host/FileSnapshot.hpp).
    if (auto kept = file_snapshot::find(file)) return std::move(*kept);
    std::ifstream in(file, std::ios::binary);
    if (!in) throw ScriptError("cannot read " + display_path(file) + ": no such file or not readable",
                               display_path(file));
    std::ostringstream text;
    text << in.rdbuf();
    std::string bytes = text.str();
    file_snapshot::keep(file, bytes);
    return bytes;
}

}  // namespace umpire
