// umpire.copy (bindings/lua/data_copy.lua) against a brute-force copy: random tables, read-only
// data (sealed by the data guard, as umpire.data is) and plain, alone and in chains.
#include <catch2/catch.hpp>

#include <lua.hpp>

#include <string>

#include "host/DataGuard.hpp"
#include "tests/support/helpers.hpp"

using test_helpers::TestHost;

namespace {

// Lua that makes `cases`: random tables with every kind of key a constructor must name (strings
// with quotes, escapes, NULs and newlines; integers, floats, large and negative numbers;
// booleans) and, if `with_table_keys`, keys it cannot (tables: never in data from YAML, which the
// data guard does not seal), values of every kind, and a few tables past the size a constructor
// is compiled for. A generator written here (Park and Miller's minimal standard: multiplier
// 48271, modulus 2^31 - 1, whose products stay below 2^53, exact in a double), so the cases are
// the same on every run and do not touch the game's dice.
const char* kMakeCases = R"lua(
  lcg_seed = 20261124
  table_keys_made = 0
  function random(n)
    lcg_seed = lcg_seed * 48271 % 2147483647
    return lcg_seed % n + 1
  end
  local strings = {"a", "fp", "B", "key", "id", "as", "", "with space", "quote\"s", "back\\slash",
    "new\nline", "nul\0byte", "\r\t", "é", "%q", "]]", "0", "1", "true"}
  local numbers = {0, 1, 2, 3, -1, 0.5, -2.25, 1e300, -1e-300, 2^53, 2^53 + 2, 0.1, 12, 1/3}
  local function random_key()
    local kind = random(12)
    if kind <= 6 then return strings[random(#strings)] end
    if kind <= 10 then return numbers[random(#numbers)] end
    if kind == 11 or not with_table_keys then return random(2) == 1 end
    table_keys_made = table_keys_made + 1
    return {}  -- a table as a key: no constructor names it
  end
  local shared = {shared = true}
  local function random_value()
    local kind = random(6)
    if kind == 1 then return strings[random(#strings)] end
    if kind == 2 then return numbers[random(#numbers)] end
    if kind == 3 then return random(2) == 1 end
    if kind == 4 then return shared end
    if kind == 5 then return {random(9)} end
    return print  -- a function
  end
  cases = {}
  for i = 1, 400 do
    local t, n = {}, random(i % 50 == 0 and 700 or 16) - 1
    for _ = 1, n do t[random_key()] = random_value() end
    if i % 50 == 0 then for j = 1, 600 do t["k" .. j] = j end end
    cases[i] = t
  end
)lua";

// Lua that checks umpire.copy against a copy by `raw_next` (install_raw_next) for every case and
// random chains of them; `label` names the kind of table in messages; `random` is kMakeCases's
// generator, seeded again.
// Returns the number of copies checked.
const char* kCheckCases = R"lua(
  lcg_seed = 7
  -- umpire.copy for one table, umpire.copy_chain for a list of them
  local function copy_of(...)
    if select("#", ...) == 1 then return umpire.copy((...)) end
    return umpire.copy_chain({...})
  end
  local function by_pairs(...)
    local out = {}
    for i = 1, select("#", ...) do
      for k, v in raw_next, (select(i, ...)) do out[k] = v end
    end
    return out
  end
  local function same(a, b, what)
    local n = 0
    for k, v in raw_next, a do
      n = n + 1
      if rawget(b, k) ~= v then error(what .. ": key " .. tostring(k) .. " differs", 0) end
    end
    for _ in raw_next, b do n = n - 1 end
    if n ~= 0 then error(what .. ": key counts differ", 0) end
  end
  local checked = 0
  local function check(what, ...)
    local expected = by_pairs(...)
    -- with via "copier" or "snapshot", one umpire.copier or umpire.snapshot_copier kept for the
    -- three copies (as rule code keeps it)
    local copier = (via == "copier" and umpire.copier({...})) or (via == "snapshot" and umpire.snapshot_copier({...}))
    for round = 1, 3 do  -- the first copy compiles the copier, the later ones reuse it
      local copy = copier and copier() or copy_of(...)
      same(expected, copy, what .. " (copy " .. round .. ")")
      if getmetatable(copy) ~= nil then error(what .. ": the copy has a metatable", 0) end
      if copy == (...) then error(what .. ": the copy is the table itself", 0) end
      -- the copy is its own: changing it changes neither the tables copied nor the next copy
      for k in raw_next, expected do copy[k] = "changed" end
      copy[{}] = "added"
      same(expected, by_pairs(...), what .. " (the data after changing copy " .. round .. ")")
      checked = checked + 1
    end
  end
  for i, t in ipairs(cases) do
    check(label .. " table " .. i, t)
  end
  for i = 1, 300 do
    local n = random(3) + 1
    local chain, names = {}, {}
    for j = 1, n do
      local which = random(#cases)
      chain[j], names[j] = cases[which], which
    end
    check(label .. " chain " .. table.concat(names, ","), unpack(chain))
  end
  return checked
)lua";

// `next` without the sandbox's stable order, for the brute-force copy alone: the sandbox's `pairs`
// and `next` refuse a table with table keys (no stable order), and the cases with table keys are
// there to show that umpire.copy copies them. Which order the reference copy visits keys in does
// not change what it copies.
int raw_next(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    if (lua_next(L, 1)) return 2;
    lua_pushnil(L);
    return 1;
}

// Sets the script global `raw_next` to raw_next above.
void install_raw_next(TestHost& t) {
    lua_State* L = t.host.state();
    REQUIRE(t.host.run_string("return function(f) raw_next = f end", "=test", true) == 1);
    lua_pushcfunction(L, raw_next);
    REQUIRE(lua_pcall(L, 1, 0, 0) == 0);
}

// Seals the script global `name` (a table) as the ruleset loader seals umpire.data.
void seal_global(TestHost& t, umpire::DataGuard& guard, const std::string& name) {
    lua_State* L = t.host.state();
    REQUIRE(t.host.run_string("return " + name, "=test", true) == 1);
    REQUIRE(lua_istable(L, -1));
    guard.seal(L, lua_gettop(L));
    lua_pop(L, 1);
}

// kCheckCases over plain tables (copied by a loop each time), then over tables sealed as
// umpire.data is (each gets the read-only metatable, and its copies compile); `mode`: "copier" or
// "snapshot" through one umpire.copier or umpire.snapshot_copier kept for each table or chain,
// "copy" through umpire.copy / umpire.copy_chain.
void check_plain_then_data(const std::string& mode) {
    TestHost t;
    install_raw_next(t);
    t.host.run_string("via = '" + mode + "'\nwith_table_keys = true\n" + kMakeCases);
    t.host.run_string("label = 'plain " + mode + "'\nchecked = (function()\n" + kCheckCases + "\nend)()");
    CHECK(t.eval("checked") == std::to_string(3 * (400 + 300)));
    // (the cases do have table keys: the generator used before this one never drew them)
    CHECK(std::stoi(t.eval("table_keys_made")) > 100);
    t.host.run_string(std::string("with_table_keys = false\n") + kMakeCases);
    umpire::DataGuard guard(t.host);
    seal_global(t, guard, "cases");
    CHECK(t.eval("(pcall(function() cases[1][{}] = 1 end))") == "false");  // read-only now
    t.host.run_string("label = 'data " + mode + "'\nchecked = (function()\n" + kCheckCases + "\nend)()");
    CHECK(t.eval("checked") == std::to_string(3 * (400 + 300)));
}

}  // namespace

TEST_CASE("umpire.copy equals a copy by pairs, for read-only data and plain tables (brute force)", "[api][copy]") {
    check_plain_then_data("copy");
}

TEST_CASE("umpire.copier's copies equal a copy by pairs, for read-only data and plain tables (brute force)",
          "[api][copy]") {
    check_plain_then_data("copier");
}

TEST_CASE("umpire.snapshot_copier's copies equal a copy by pairs, for read-only data and plain tables (brute force)",
          "[api][copy]") {
    check_plain_then_data("snapshot");
}

// A snapshot copier's constructor holds the values as constants: what it copies is the tables as
// they were when it was made, every kind of value kept as it was (a negative zero keeps its sign;
// values no constant can spell, such as NaN, infinities, tables and functions, are bound to it).
TEST_CASE("umpire.snapshot_copier copies the tables as they were when it was made", "[api][copy]") {
    TestHost t;
    t.host.run_string("counter = {fp = 5, rof = 2, name = 'MMG \"x\"\\n', zero = -0.0, nan = 0/0, inf = -1/0, "
                      "half = 0.1, big = 2^53 + 2, sub = {1}, fn = print, flag = false}  profile = {fp = 7, range = 24}");
    umpire::DataGuard guard(t.host);
    seal_global(t, guard, "counter");
    t.host.run_string("list = {counter, profile}  snap = umpire.snapshot_copier(list)");
    CHECK(t.eval("snap().fp") == "7");
    CHECK(t.eval("snap().rof") == "2");
    CHECK(t.eval("snap() ~= snap()") == "true");  // a fresh table each call
    t.host.run_string("profile.fp = 8  counter.rof = 3  list[2] = nil");  // made before: none of this shows
    CHECK(t.eval("snap().fp .. ' ' .. snap().rof .. ' ' .. snap().range") == "7 2 24");
    CHECK(t.eval("snap().name == 'MMG \"x\"\\n'") == "true");
    CHECK(t.eval("1 / snap().zero") == "-inf");
    CHECK(t.eval("snap().nan ~= snap().nan") == "true");
    CHECK(t.eval("snap().inf") == "-inf");
    CHECK(t.eval("snap().half == 0.1 and snap().big == 2^53 + 2") == "true");
    CHECK(t.eval("snap().sub == counter.sub and snap().fn == print and snap().flag == false") == "true");
    CHECK(t.eval("next(umpire.snapshot_copier({})())") == "nil");
    // (a key no constructor names: the merged table as it was, copied by a loop)
    t.host.run_string("key = {}  odd = {[key] = 1, x = 2}  odd_snap = umpire.snapshot_copier({odd})  odd.x = 3");
    CHECK(t.eval("odd_snap()[key] .. ' ' .. odd_snap().x") == "1 2");
    CHECK(t.eval("odd_snap() ~= odd_snap()") == "true");
    CHECK_THROWS_WITH(t.host.run_string("umpire.snapshot_copier('x')"),
                      Catch::Contains("umpire.snapshot_copier: the argument must be a table, got string"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.snapshot_copier({counter, 5})"),
                      Catch::Contains("umpire.snapshot_copier: table #2 of the list must be a table, got number"));
    // (a list past what unpack hands on is refused at the caller's line, as by its twins copier
    // and copy_chain: it named data_copy.lua's line)
    CHECK_THROWS_WITH(t.host.run_string("local t = {} for i = 1, 100000 do t[i] = {} end\nlocal c = umpire.snapshot_copier(t)"),
                      Catch::Contains("(command line):2: umpire.snapshot_copier: a list of 100000 tables (a chain holds at most 1000)"));
}

TEST_CASE("umpire.copier reads the values at each copy and the list once, and bad arguments are errors", "[api][copy]") {
    TestHost t;
    t.host.run_string("counter = {fp = 5, rof = 2}  profile = {fp = 7, range = 24}  plain = {x = 1}");
    umpire::DataGuard guard(t.host);
    seal_global(t, guard, "counter");
    seal_global(t, guard, "profile");
    t.host.run_string("list = {counter, profile}  data_copier = umpire.copier(list)  plain_copier = umpire.copier({plain})");
    CHECK(t.eval("data_copier().fp") == "7");
    CHECK(t.eval("data_copier().rof") == "2");
    CHECK(t.eval("data_copier() ~= data_copier()") == "true");  // a fresh table each call
    t.host.run_string("profile.fp = 8");  // a value changes: the next copy has it
    CHECK(t.eval("data_copier().fp") == "8");
    t.host.run_string("list[2] = nil");  // the list was read when the copier was made
    CHECK(t.eval("data_copier().range") == "24");
    t.host.run_string("plain.y = 2");  // a table that is not data may gain keys: copied as it is then
    CHECK(t.eval("plain_copier().y") == "2");
    CHECK(t.eval("next(umpire.copier({})())") == "nil");
    CHECK_THROWS_WITH(t.host.run_string("umpire.copier('x')"),
                      Catch::Contains("umpire.copier: the argument must be a table, got string"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.copier({counter, 5})"),
                      Catch::Contains("umpire.copier: table #2 of the list must be a table, got number"));
}

TEST_CASE("umpire.copy of a data table reads the values at each copy, and bad arguments are errors", "[api][copy]") {
    TestHost t;
    t.host.run_string("counter = {fp = 5, rof = 2, name = 'MMG'}  profile = {fp = 7, range = 24}");
    umpire::DataGuard guard(t.host);
    seal_global(t, guard, "counter");
    seal_global(t, guard, "profile");
    CHECK(t.eval("umpire.copy(counter).fp") == "5");
    // an existing key's value can change (the guard undoes it after a run): the copy follows it
    t.host.run_string("counter.fp = 6");
    CHECK(t.eval("umpire.copy(counter).fp") == "6");
    t.host.run_string("counter.fp = nil");
    CHECK(t.eval("umpire.copy(counter).fp") == "nil");
    CHECK(t.eval("umpire.copy_chain({counter, profile}).fp") == "7");
    CHECK(t.eval("umpire.copy_chain({profile, counter}).range") == "24");
    CHECK(t.eval("umpire.copy_chain({profile, counter}).rof") == "2");
    CHECK(t.eval("next(umpire.copy_chain({}))") == "nil");
    CHECK_THROWS_WITH(t.host.run_string("umpire.copy(5)"), Catch::Contains("umpire.copy: the argument must be a table, got number"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.copy()"), Catch::Contains("the argument must be a table, got nil"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.copy_chain({5})"),
                      Catch::Contains("table #1 of the list must be a table, got number"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.copy_chain({counter, 'x'})"),
                      Catch::Contains("table #2 of the list must be a table, got string"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.copy_chain('x')"),
                      Catch::Contains("umpire.copy_chain: the argument must be a table, got string"));
    // Attack (session 32): a list that goes on past a cached chain with a value the cache keeps its
    // own entries under walked from the chain's node into its copier ("attempt to index local
    // 'node' (a function value)", at a line of data_copy.lua): it is the same argument error as
    // any other non-table.
    CHECK(t.eval("umpire.copy_chain({counter}).rof") == "2");  // the chain {counter} is cached
    for (const char* extra : {"1", "true", "'x'", "2"}) {
        INFO(extra);
        CHECK_THROWS_WITH(t.host.run_string(std::string("umpire.copy_chain({counter, ") + extra + "})", "@attack.lua"),
                          Catch::StartsWith("attack.lua:1: umpire.copy_chain: table #2 of the list must be a table"));
        CHECK_THROWS_WITH(t.host.run_string(std::string("umpire.copy_chain({counter, ") + extra + ", {}})", "@attack.lua"),
                          Catch::StartsWith("attack.lua:1: umpire.copy_chain: table #2 of the list must be a table"));
    }
}

// umpire.merge (data_copy.lua) writes a plain override of string keys in raw `next` order instead of
// the sandbox's sorted one. The reference is the loop it replaces, `for k, v in pairs(over) do
// t[k] = v end`, run on a twin of each case: random tables `t` and `over` (string, integer, float
// and boolean keys, integer keys with holes, so that `#` can tell two layouts apart), some `t` with
// a __newindex that logs its writes in order, some `over` a read-only view (a library) or a table
// with a metatable. Each case compares the tables' fields, `#t` and the log. Park-Miller numbers.
TEST_CASE("umpire.merge writes what a pairs loop writes, in an order nothing can tell (brute force)", "[api][copy]") {
    TestHost t;
    t.host.run_string(R"lua(
      local seed = 20261125
      local function random(n)
        seed = seed * 16807 % 2147483647
        return seed % n + 1
      end
      local strings = {"a", "b", "fp", "key", "", "x y", "1", "z"}
      local numbers = {1, 2, 3, 4, 5, 7, 8, 16, 0.5, -1}
      local function random_key()
        local kind = random(10)
        if kind <= 5 then return strings[random(#strings)] end
        if kind <= 9 then return numbers[random(#numbers)] end
        return random(2) == 1
      end
      local function random_table(n, strings_only)
        local out = {}
        for _ = 1, n do
          local k = strings_only and strings[random(#strings)] or random_key()
          out[k] = random(100)
        end
        return out
      end
      -- the twin of a table: the same keys written in the same order (a copy by pairs)
      local function twin(x)
        local out = {}
        for k, v in pairs(x) do out[k] = v end
        return out
      end
      local function same(a, b, what)
        for k, v in pairs(a) do assert(b[k] == v, what .. ": field " .. tostring(k)) end
        for k, v in pairs(b) do assert(a[k] == v, what .. ": field " .. tostring(k)) end
        assert(#a == #b, what .. ": #t " .. #a .. " against " .. #b)
      end
      local fast = 0
      for case = 1, 3000 do
        local base = random_table(random(12) - 1, false)
        local over = random_table(random(6) - 1, random(3) > 1)
        local mine, theirs = twin(base), twin(base)
        local log_mine, log_theirs
        if case % 7 == 0 then
          log_mine, log_theirs = {}, {}
          setmetatable(mine, {__newindex = function(t, k, v) log_mine[#log_mine + 1] = k rawset(t, k, v) end})
          setmetatable(theirs, {__newindex = function(t, k, v) log_theirs[#log_theirs + 1] = k rawset(t, k, v) end})
        end
        if case % 11 == 0 then setmetatable(over, {}) end
        assert(umpire.merge(mine, over) == mine)
        for k, v in pairs(over) do theirs[k] = v end
        local what = "case " .. case
        same(mine, theirs, what)
        if log_mine then
          assert(#log_mine == #log_theirs, what .. ": writes")
          for i = 1, #log_mine do assert(log_mine[i] == log_theirs[i], what .. ": write " .. i) end
        elseif getmetatable(over) == nil then
          fast = fast + 1
        end
      end
      -- a read-only view is walked through to its real table, as pairs walks it
      local from_view = umpire.merge({}, math)
      assert(from_view.floor == math.floor and from_view.pi == math.pi, "a view's fields")
      print("merged", fast)
    )lua");
    CHECK(t.lines.back().rfind("merged", 0) == 0);
    CHECK(t.lines.back() != "merged\t0");
    // errors at the caller's line (the chunk run_string runs)
    CHECK_THROWS_WITH(t.host.run_string("\numpire.merge({}, 5)"),
                      Catch::Contains(":2: bad argument #2 to 'umpire.merge' (table expected, got number)"));
    CHECK_THROWS_WITH(t.host.run_string("\n\numpire.merge({}, {[{}] = 1})"),
                      Catch::Contains(":3: umpire.merge: a key of type table has no stable order"));
}
