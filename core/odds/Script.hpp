// A rule script as the odds engine sees it: a callable that rolls its dice through the given
// source and returns an outcome. The bindings wrap a Lua chunk in one; tests use C++ lambdas.
// A script must be a function of its dice alone (see EnumeratingSource).
#pragma once
#include <functional>

#include "core/dice/DieSource.hpp"
#include "core/odds/Outcome.hpp"

namespace umpire::odds {

using Script = std::function<Outcome(dice::DieSource&)>;

// Makes a fresh, independent Script. The Monte Carlo runner calls it once per worker thread, in
// the calling thread, and then runs each Script on its own worker only: a Lua script gets one
// lua_State per worker, and the factory itself need not be thread-safe.
using ScriptFactory = std::function<Script()>;

}  // namespace umpire::odds
