#include "app/SpecRunner.hpp"

#include "bindings/GameLog.hpp"
#include "host/DataGuard.hpp"
#include "host/LuaHost.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/Ruleset.hpp"

namespace umpire {
namespace {

// The spec API, compiled into each spec file's env (so it runs under the same rules as tests).
constexpr const char* kSpecApi = R"lua(
local tests, prefix = {}, {}
local function test(name, fn)
  if type(name) ~= "string" or type(fn) ~= "function" then
    error("test(name, fn): name must be a string and fn a function", 2)
  end
  -- The runner seals the list once the file's body has run: a test declared inside a test was
  -- never run, and the one around it passed without a word.
  if tests.sealed then
    error("test(name, fn) inside a running test: it would never run; declare tests at the top level of the spec file (or in a describe)", 2)
  end
  tests[#tests + 1] = { name = table.concat(prefix) .. name, fn = fn }
end
local function describe(name, fn)
  prefix[#prefix + 1] = name .. " / "
  fn()
  prefix[#prefix] = nil
end
-- show and equal walk tables that may hold cycles or nest without end (a test's own structures):
-- recursing blindly, both ran out of stack and the failure named "(spec api):23" instead of the
-- test's line. A table met again on the path is shown as "<cycle>", nesting past kDeep as "{...}";
-- equal takes a pair of tables met again on the path as equal (a cycle compares as the trees it
-- unrolls to), and returns nil and why past kDeep, for its caller to raise at the test's line.
local kDeep = 100
local function show(v, depth, path)
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) ~= "table" then return tostring(v) end
  depth, path = depth or 0, path or {}
  if path[v] then return "<cycle>" end
  if depth >= kDeep then return "{...}" end
  path[v] = true
  local parts = {}
  for k, x in pairs(v) do parts[#parts + 1] = tostring(k) .. "=" .. show(x, depth + 1, path) end
  path[v] = nil
  return "{" .. table.concat(parts, ", ") .. "}"
end
local function equal(a, b, depth, path)
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  depth, path = depth or 0, path or {}
  if path[a] and path[a][b] then return true end
  if depth >= kDeep then return nil, "tables nested deeper than " .. kDeep .. " levels cannot be compared" end
  path[a] = path[a] or {}
  path[a][b] = true
  local same, why = true, nil
  for k, v in pairs(a) do
    same, why = equal(v, b[k], depth + 1, path)
    if not same then break end
  end
  if same then for k in pairs(b) do if a[k] == nil then same = false break end end end
  path[a][b] = nil
  return same, why
end
local function fail(msg, text, level) error((msg and (msg .. ": ") or "") .. text, level + 1) end
local function assert_eq(actual, expected, msg)
  local same, why = equal(actual, expected)
  if not same then fail(msg, why or ("expected " .. show(expected) .. ", got " .. show(actual)), 2) end
end
-- Written as "not within" so that NaN fails: `math.abs(actual - expected) > tolerance` is false for
-- a NaN on either side (or a NaN tolerance), and assert_near(0/0, 0.5) passed (session 37).
local function assert_near(actual, expected, tolerance, msg)
  tolerance = tolerance or 1e-9
  if type(expected) ~= "number" or type(tolerance) ~= "number" or not (tolerance >= 0) then
    error("assert_near(actual, expected[, tolerance]): expected must be a number and tolerance a number from 0 up", 2)
  end
  if type(actual) ~= "number" or not (math.abs(actual - expected) <= tolerance) then
    fail(msg, "expected " .. show(expected) .. " (+-" .. tolerance .. "), got " .. show(actual), 2)
  end
end
local function assert_error(fn, text)
  local ok, err = pcall(fn)
  if ok then error("expected an error, but the function returned normally", 2) end
  if text and not tostring(err):find(text, 1, true) then
    error("expected an error containing " .. show(text) .. ", got " .. show(tostring(err)), 2)
  end
end
local function expect(actual)
  local function to_be(expected)
    local same, why = equal(actual, expected)
    if not same then error(why or ("expected " .. show(expected) .. ", got " .. show(actual)), 2) end
  end
  return { to_be = to_be, to_equal = to_be }
end
-- The short names of docs/lua-api.md.
local function eq(actual, expected, msg)
  local same, why = equal(actual, expected)
  if not same then fail(msg, why or ("expected " .. show(expected) .. ", got " .. show(actual)), 2) end
end
local function ok(value, msg)
  if not value then fail(msg, "expected a true value, got " .. show(value), 2) end
end
local function raises(fn, pattern)
  local good, err = pcall(fn)
  if good then error("expected an error, but the function returned normally", 2) end
  if pattern and not tostring(err):find(pattern) then
    error("expected an error matching " .. show(pattern) .. ", got " .. show(tostring(err)), 2)
  end
end
-- Random cases that are the same on every run, for tests that check rule code against a brute
-- force over many configurations: Park and Miller's minimal standard generator (multiplier 48271,
-- modulus 2^31 - 1). Its products stay below 2^53, so a double holds them exactly and no platform
-- rounds them differently (an LCG multiplying by 1103515245 passes 2^53). Seed 0 (mod 2^31 - 1)
-- would stay 0 forever, so it is refused.
local function seeded_random(seed)
  if type(seed) ~= "number" or seed % 1 ~= 0 or seed % 2147483647 == 0 then
    error("seeded_random(seed): seed must be a whole number that is not a multiple of 2^31 - 1", 2)
  end
  local state = seed % 2147483647
  return function(n)
    -- (pick(0) was NaN, pick(-3) -1 and pick(0.5) 1.x, without a word: session 37)
    if type(n) ~= "number" or n % 1 ~= 0 or n < 1 or n > 2147483646 then
      error("seeded_random: pick(n) takes a whole number n from 1 to 2147483646, got " .. tostring(n), 2)
    end
    state = state * 48271 % 2147483647
    return state % n + 1
  end
end
test_api = { eq = eq, ok = ok, raises = raises, test = test, it = test, describe = describe, assert_eq = assert_eq,
             assert_near = assert_near, assert_error = assert_error, expect = expect, seeded_random = seeded_random }
for name, fn in pairs(test_api) do _G[name] = fn end
return tests
)lua";

// house_rule(module, overrides, fn): runs fn with umpire.rules[module] replaced as a house rule's
// module of that name replaces it when it loads (ruleset/Ruleset.cpp, load_module): a table of
// its own that falls back to the module it replaces. A module's table is fixed once its ruleset
// has loaded (host/ModuleGuard.hpp: no ruleset may change another's functions), so a spec cannot
// patch one in place to try a house rule; this puts the original back whether fn passes or fails.
// `swap` is l_swap_module.
constexpr const char* kHouseRule = R"lua(
local swap = ...
function house_rule(name, overrides, fn)
  if type(name) ~= "string" or type(overrides) ~= "table" or type(fn) ~= "function" then
    error("house_rule(module, overrides, fn): a module's name, a table of its replaced fields and a function", 2)
  end
  local original = umpire.rules[name]
  if original == nil then error("house_rule: there is no module umpire.rules." .. name, 2) end
  local house = {}
  for k, v in pairs(overrides) do house[k] = v end
  swap(name, setmetatable(house, {__index = original}))
  local fine, err = pcall(fn)
  swap(name, original)
  if not fine then error(err, 0) end
end
)lua";

// swap(name, table): umpire.rules[name] = table. Upvalue 1: umpire.rules. (A spec that did this
// itself and left it so would be refused after its test, host/ModuleGuard.hpp: house_rule puts
// the module back.)
int l_swap_module(lua_State* L) {
    const char* name = luaL_checkstring(L, 1);
    luaL_checktype(L, 2, LUA_TTABLE);
    lua_pushvalue(L, 2);
    lua_setfield(L, lua_upvalueindex(1), name);
    return 0;
}

// Defines house_rule in the spec file's env at `env`.
void add_house_rule(LuaHost& host, int env) {
    lua_State* L = host.state();
    host.load_chunk(kHouseRule, "=(spec api)", env);
    lua_getfield(L, env, "umpire");
    lua_getfield(L, -1, "rules");
    lua_pushcclosure(L, l_swap_module, 1);
    lua_replace(L, -2);
    host.call(1, 0);
}

}  // namespace

SpecResult run_spec_file(LuaHost& host, const std::filesystem::path& file, const std::string& checked,
                         std::ostream& out) {
    lua_State* L = host.state();
    const int top = lua_gettop(L);
    // (from the path checked when there is one, not resolved again: display_path resolves
    // symlinks, and a spec swapped for one since would be shown by where it leads)
    std::error_code ec;
    const std::string display = checked.empty() ? LuaHost::display_path(file)
                                                 : ruleset::display_of(checked, std::filesystem::current_path(ec).native());
    SpecResult result;
    const auto saved_dice = host.die_source();
    try {
        // Kept while the spec's code runs and grows memory: charged while kept (a state near the
        // cap cannot double itself outside it).
        const LuaHost::KeptState initial_state(host, "kept to give each test of a spec file the state the rules loaded with");
        host.push_script_env();
        const int env = lua_gettop(L);
        host.add_front("=(spec api)");
        host.load_chunk(kSpecApi, "=(spec api)", env);
        host.call(0, 1);
        const int tests = lua_gettop(L);
        lua_pushnil(L);
        lua_setfield(L, env, "test_api");
        add_house_rule(host, env);
        host.load_chunk(ruleset::read_spec_file(file, checked, display), "@" + display, env);
        host.call(0, 0);
        DataGuard::check(host, "the spec file's body");
        lua_pushboolean(L, 1);
        lua_setfield(L, tests, "sealed");  // test() refuses from here on (kSpecApi)
        const int n = static_cast<int>(lua_objlen(L, tests));
        for (int i = 1; i <= n; ++i) {
            lua_rawgeti(L, tests, i);
            lua_getfield(L, -1, "name");
            const std::string name = lua_tostring(L, -1);
            lua_getfield(L, -2, "fn");
            // Each test starts with an empty journal, so umpire.journal.cited() sees only
            // what this test's rules cited.
            host.extension<GameLog>().journal = bus::Journal();
            // ... and the game state the ruleset loaded with, so no test depends on the order of
            // the tests before it.
            host.set_state_json(initial_state.text());
            try {
                host.call(0, 0);
                DataGuard::check(host, "the test");
                ++result.passed;
                out << "ok   " << display << ": " << name << "\n";
            } catch (const ScriptError& e) {
                DataGuard::restore_quietly(host);  // the next test sees the data as loaded
                ++result.failed;
                out << "FAIL " << display << ": " << name << "\n     " << e.what() << "\n";
                if (!e.traceback.empty()) out << e.traceback << "\n";
            }
            host.set_die_source(saved_dice);
            lua_pop(L, 2);
        }
    } catch (const ScriptError& e) {
        // The spec file itself did not load or run: one failure, with its position.
        DataGuard::restore_quietly(host);
        ++result.failed;
        out << "FAIL " << display << "\n     " << e.what() << "\n";
    }
    host.set_die_source(saved_dice);
    lua_settop(L, top);
    return result;
}

}  // namespace umpire
