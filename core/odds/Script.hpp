// A rule script as the odds engine sees it: a callable that rolls its dice through the given
// source and returns an outcome. The bindings wrap a Lua chunk in one; tests use C++ lambdas.
// A script must be a function of its dice alone (see EnumeratingSource).
#pragma once
#include <concepts>
#include <cstddef>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>

#include "core/dice/DieSource.hpp"
#include "core/odds/Outcome.hpp"

namespace umpire::odds {

struct Script {
    // Runs the script once with the given dice.
    std::function<Outcome(dice::DieSource&)> run;
    // Told the bytes of C++ memory the runner holds for this script's outcomes (its tally: one
    // entry per distinct outcome, key and value) each time the tally gains an outcome; it may
    // throw to stop the run. A host charges it against its memory cap (docs/sandbox.md, "Memory"),
    // so a script whose outcomes never repeat ends in an error naming the cap, not in swap. It is
    // called on the thread that runs the script. Empty: not told.
    std::function<void(std::size_t bytes)> on_memory;

    Script() = default;
    // Any callable Outcome(DieSource&) is a Script that is not told its memory.
    template <class F>
        requires(!std::same_as<std::remove_cvref_t<F>, Script> &&
                 std::is_invocable_r_v<Outcome, F&, dice::DieSource&>)
    Script(F&& function) : run(std::forward<F>(function)) {}

    Outcome operator()(dice::DieSource& dice) const { return run(dice); }
};

// Bytes of one tally entry as Script::on_memory counts them: the key text, the outcome (whose
// strings are about the key's length again), the map node and its count, and per field of a table
// outcome its map node. An estimate, as for the other C++ memory charged to the cap.
inline std::size_t tally_entry_bytes(const std::string& key, const Outcome& outcome) {
    const std::size_t fields = outcome.is_table() ? outcome.fields().size() : 0;
    return 2 * key.capacity() + sizeof(Outcome) + 128 + 64 * fields;
}

// Makes a fresh, independent Script. The Monte Carlo runner calls it once per worker thread, in
// the calling thread, and then runs each Script on its own worker only: a Lua script gets one
// lua_State per worker, and the factory itself need not be thread-safe.
using ScriptFactory = std::function<Script()>;

}  // namespace umpire::odds
