// Game: the running game as the Lua face of the kernel sees it, and nothing more.
//
// A binding needs a few things from the game it runs in: the die source every roll comes from,
// the generation registry its registrations belong to (Registry.hpp), its own per-game C++ state
// (the journal and bus of GameLog.hpp, the hooks, the hex map), the game-state table, and a
// protected call under the game's limits for the Lua handlers it calls back. This class is that
// interface. The host (host/LuaHost.hpp) implements it and hands it in; a binding never includes
// the host, so the arrows point one way: host -> bindings -> core.
//
// How a binding finds its game: Game::of(L) reads the lua_State's allocator userdata, which is
// the Game. A host must create its state with lua_newstate(allocator, static_cast<Game*>(host)).
// That costs one call and no table look-up, which matters on the classic dice paths.
#pragma once
#include <lua.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bindings/Registry.hpp"
#include "core/Error.hpp"
#include "core/dice/DieSource.hpp"
#include "core/dice/GeneratorSource.hpp"

namespace umpire {

class Game {
public:
    explicit Game(std::uint64_t seed) : generator_(seed) {}
    virtual ~Game() = default;
    Game(const Game&) = delete;
    Game& operator=(const Game&) = delete;

    // The game a binding runs in (see the paragraph above for how it is found).
    static Game& of(lua_State* L) {
        void* ud = nullptr;
        lua_getallocf(L, &ud);
        return *static_cast<Game*>(ud);
    }

    lua_State* state() { return L_; }

    // Refuses a binding that calls rule code back through the host (umpire.bus.emit runs the
    // handlers, umpire.odds.chain its steps) when it is called inside a coroutine: the host calls
    // on the main thread, whose stack is not the running one then, and the call crashed the
    // process (SIGSEGV). An error naming the function is what a rule author can act on.
    static void require_main_thread(lua_State* L, const char* function) {
        if (L != of(L).L_)
            throw Error(std::string(function) +
                        " cannot be called inside a coroutine: it calls rule code back through the host, "
                        "which runs on the main thread (call it outside the coroutine)");
    }

    // ---- dice ------------------------------------------------------------------------------
    // Every die of the game comes from one core DieSource: the game's generator (seeded once),
    // or one set here: fixed dice in spec tests, the odds engine's enumerating source. nullptr
    // goes back to the generator.
    void set_die_source(std::shared_ptr<dice::DieSource> source) { source_ = std::move(source); }
    const std::shared_ptr<dice::DieSource>& die_source() const { return source_; }
    dice::DieSource& dice() { return source_ ? *source_ : generator_; }
    dice::GeneratorSource& generator() { return generator_; }
    std::uint32_t die(std::uint32_t sides) { return dice().die(sides); }

    // Whether umpire.odds.chain folds under the exact odds engine (on unless the host says not).
    bool folding() const { return folding_; }
    void set_folding(bool on) { folding_ = on; }
    // Whether umpire.odds.chain, played as a loop, checks the state each step leaves as the fold
    // writes it (wrap_Fold.cpp): on in a game and under the exact engine, off while an odds worker
    // draws Monte Carlo samples, whose per-sample cost the check would add to.
    bool checks_chain_steps() const { return checks_chain_steps_; }
    void set_checks_chain_steps(bool on) { checks_chain_steps_ = on; }

    // ---- what only the host can do -----------------------------------------------------------
    // Pushes umpire.state, the game-state table that survives reloads.
    virtual void push_state() = 0;
    // Protected call of the function below nargs arguments, under the game's memory, time and
    // instruction limits; a Lua error becomes a ScriptError (bindings/LuaError.hpp).
    virtual void call(int nargs, int nresults) = 0;

    // ---- C-call depth ----------------------------------------------------------------------------
    // Every C function that calls back into Lua (gsub with a function, a coroutine resume, the
    // sandbox's pcall, a hook handler...) nests one more C frame chain on the machine stack, and
    // LuaJIT does not count them: `local function f(s) return (s:gsub(".", f)) end` overflows the C
    // stack long before LuaJIT's own Lua-stack limit, and the process dies with SIGSEGV. So each
    // such entry point holds a CCallDepth for the time of its call back, and past kMaxCCalls
    // nested ones the call is refused with a Lua error. 200 is Lua 5.1's LUAI_MAXCCALLS; a
    // level costs a few hundred bytes to a few KiB of C stack, far below any thread's stack.
    static constexpr int kMaxCCalls = 200;
    int& c_calls() { return c_calls_; }

    // ---- long C++ computations -----------------------------------------------------------------
    // A binding about to compute for long without coming back to Lua (a distribution of many dice)
    // notes the rule code's place first ("file:line: in umpire.dice.dist:"): the count hook cannot
    // stop C++ code, so at the time limit the watchdog (or the worker's parent) ends the process,
    // and its message names the last place noted. The host notes it (LuaHost::note_c_entry).
    virtual void note_long_call(lua_State* L, const char* what) { (void)L, (void)what; }

    // ---- C++ memory made for Lua ------------------------------------------------------------------
    // A binding that keeps C++ heap memory alive behind a userdata (a distribution's weights)
    // charges it here, so it counts against the same cap as the Lua heap: charge_memory returns
    // false if it would pass the cap (after a full collection, which may free other such
    // objects), and the binding refuses. The object's __gc releases what it charged.
    virtual bool charge_memory(std::size_t bytes) { (void)bytes; return true; }
    virtual void release_memory(std::size_t bytes) { (void)bytes; }
    // C++ memory that grows with what rule code does but has no userdata to hang a charge on:
    // the journal (cite, note, result, rolls, events). Its owner points this at its byte count;
    // charge_growth() charges or releases the change since the last call and returns false when
    // the growth would pass the cap. The host calls it from its count hook (one comparison when
    // nothing grew) and the journal's bindings after each entry.
    const std::size_t* growing_bytes = nullptr;
    bool charge_growth() {
        if (!growing_bytes || *growing_bytes == growth_charged_) return true;
        const std::size_t now = *growing_bytes;
        if (now < growth_charged_) {
            release_memory(growth_charged_ - now);
        } else if (!charge_memory(now - growth_charged_)) {
            return false;
        }
        growth_charged_ = now;
        return true;
    }

    // ---- registrations staged per load generation ---------------------------------------------
    Registry& registry() { return registry_; }

    // Per-game singletons of bindings that keep C++ state (umpire.hooks, the bus and journal,
    // the hex map): created on first use with T(Game&), destroyed before the lua_State closes.
    // Found by a linear scan of a few entries keyed by a per-type address: the journal's is
    // looked up on every die and citation, and a std::map keyed by type_index compared the
    // types' mangled names with strcmp on each look-up.
    template <class T>
    T& extension() {
        const void* tag = type_tag<T>();
        for (const auto& [key, object] : extensions_)
            if (key == tag) return *static_cast<T*>(object.get());
        auto object = std::make_shared<T>(*this);  // may itself make other extensions
        extensions_.emplace_back(tag, object);
        return *object;
    }

protected:
    // A host calls this before lua_close: extensions hold Lua references.
    void clear_extensions() { extensions_.clear(); }

    lua_State* L_ = nullptr;  // set by the host that creates the state

private:
    dice::GeneratorSource generator_;
    int c_calls_ = 0;
    std::size_t growth_charged_ = 0;
    std::shared_ptr<dice::DieSource> source_;
    Registry registry_;
    bool folding_ = true;
    bool checks_chain_steps_ = true;
    std::vector<std::pair<const void*, std::shared_ptr<void>>> extensions_;

    // One address per extension type (a function-local static of an inline template has one
    // instance in the program).
    template <class T>
    static const void* type_tag() {
        static const char tag = 0;
        return &tag;
    }
};

// Holds one level of C-call depth (Game::c_calls) for its scope. enter() raises a Lua error past
// the limit, so it must be called where a Lua error may be raised (no C++ object whose
// destructor matters alive, or inside lua_guard's body). The destructor also runs when a Lua
// error unwinds through it: LuaJIT on x86_64 raises errors as foreign C++ exceptions
// (external unwinding), which run destructors. LuaHost::call resets the count at each top-level
// call as well, so a count cannot leak from one call into the next.
class CCallDepth {
public:
    explicit CCallDepth(lua_State* L) : game_(Game::of(L)) {
        if (game_.c_calls() >= Game::kMaxCCalls) {
            luaL_error(L, "C stack overflow: more than %d nested calls through C functions (gsub, "
                          "coroutines, pcall, metamethods); recursion without end?",
                       Game::kMaxCCalls);
        }
        ++game_.c_calls();
    }
    ~CCallDepth() { --game_.c_calls(); }
    CCallDepth(const CCallDepth&) = delete;
    CCallDepth& operator=(const CCallDepth&) = delete;

private:
    Game& game_;
};

}  // namespace umpire
