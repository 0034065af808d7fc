// The caches rule code keeps of answers worked out from umpire.data (umpire.data_cache): tables
// the host empties after every run (host/DataGuard.cpp, put_back: the check each run ends with).
//
// Why. umpire.data is read-only, but a write to an existing key is found only after the run
// (host/DataGuard.hpp), which then puts the data back in place. Whatever rule code worked out from
// the written data in the meantime and kept (asl's attack memos, its IFT turned on its side, the
// compiled copiers of umpire.copy) would otherwise answer from it until the next reload, in every
// later run: a refused run would leave a trace after all. The same for a run that changes the data
// and puts it back itself before it ends: the guard finds nothing, yet the caches hold what was
// worked out in between. The caches cannot see either (the tables keep their identity, which is
// what they key on), so the host empties them after every run, the only way that costs a hot path
// nothing; an empty cache is a cold one. Filling them again costs a run little: `umpire test`, a
// run per spec, took no longer.
//
// Each cache is a plain table made by the host and listed in a weak-keyed table of the registry,
// so a load generation's caches go with it. Emptying one removes its keys (raw) and keeps its
// metatable: rules/memo_tree.lua gives its memos one under which an emptied memo reads as full,
// so the size check its owners already make at entry starts it again.
#pragma once
#include <lua.hpp>

namespace umpire::data_caches {

// Pushes a new, empty cache (listed for empty_all).
void push_new(lua_State* L);
// Empties every cache of the state. Allocates nothing (it only clears fields that exist), so a
// restore that runs near the memory cap cannot fail here.
void empty_all(lua_State* L);

}  // namespace umpire::data_caches
