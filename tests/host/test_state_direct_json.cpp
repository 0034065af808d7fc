// The direct canonical-JSON writer and reader of the game state (bindings/GameState.cpp) against
// the nlohmann DOM versions they replace on the hot path: the same bytes, the same decoded values,
// the same errors, over random states.
#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "bindings/GameState.hpp"
#include "tests/support/helpers.hpp"

using test_helpers::TestHost;
using namespace umpire;

namespace {

// A random plain-data Lua value, as Lua source: nested maps and sequences, whole and fractional
// numbers (negative zero, 2^53 and beyond, tiny and huge), strings that need escapes, UTF-8,
// keys that sort differently as signed and unsigned bytes.
std::string random_value(std::mt19937& rng, int depth) {
    const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    static const char* const kNumbers[] = {"0", "-0.0", "1", "-7", "2^53", "2^53 + 2", "2^60", "-2^63", "2^64",
                                           "1e300", "0.5", "-2.25", "1/3", "1e-9", "123456.789", "7.5"};
    static const char* const kStrings[] = {"\"\"", "\"a\"", "\"PFPh\"", "\"21K8\"", "\"quote \\\" in\"",
                                           "\"back\\\\slash\"", "\"tab\\tnew\\nline\"", "\"\\1ctl\"",
                                           "\"caf\\195\\169\"", "\"\\127del\"", "\"snow \\226\\152\\131\""};
    static const char* const kKeys[] = {"a", "b", "Z", "_x", "units", "k10", "k9", "caf\\195\\169", "\\127",
                                        "with space", "q\\\"uote", "1x", "~"};
    const int kind = depth >= 3 ? pick(3) : pick(5);
    switch (kind) {
        case 0: return kNumbers[pick(sizeof kNumbers / sizeof *kNumbers)];
        case 1: return kStrings[pick(sizeof kStrings / sizeof *kStrings)];
        case 2: return pick(2) ? "true" : "false";
        case 3: {  // a sequence
            std::string s = "{";
            for (int i = pick(4); i > 0; --i) s += random_value(rng, depth + 1) + ",";
            return s + "}";
        }
        default: {  // a map with string keys
            std::string s = "{";
            for (int i = pick(5); i > 0; --i)
                s += "[\"" + std::string(kKeys[pick(sizeof kKeys / sizeof *kKeys)]) + "\"] = " +
                     random_value(rng, depth + 1) + ",";
            return s + "}";
        }
    }
}

// Pushes the script-env global `name` (run_string sets globals in the sandbox's env, not in _G).
void push_global(TestHost& t, const char* name) {
    REQUIRE(t.host.run_string(std::string("return ") + name, "=(test)", true) == 1);
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("the direct state writer gives the DOM's bytes, and the reader its values", "[state]") {
    TestHost t;
    lua_State* L = t.host.state();
    std::mt19937 rng(20261124);
    for (int i = 0; i < 400; ++i) {
        const std::string source = "__value = {root = " + random_value(rng, 0) + "}";
        INFO(source);
        t.host.run_string(source);
        push_global(t, "__value");
        REQUIRE(lua_istable(L, -1));
        const std::string dom = game_state::to_canonical_json_via_dom(L, -1);
        const std::string direct = game_state::to_canonical_json(L, -1);
        lua_pop(L, 1);
        CHECK(direct == dom);
        // Read back both ways: the values written again give the same text.
        game_state::push_from_json(L, dom);
        CHECK(game_state::to_canonical_json_via_dom(L, -1) == dom);
        lua_pop(L, 1);
        game_state::push_from_json_via_dom(L, dom);
        CHECK(game_state::to_canonical_json_via_dom(L, -1) == dom);
        lua_pop(L, 1);
        // ... and into umpire.state in place.
        t.host.set_state_json(dom);
        CHECK(t.host.state_json() == dom);
    }
}

TEST_CASE("the direct state writer and reader refuse what the DOM refuses, in its words", "[state]") {
    TestHost t;
    lua_State* L = t.host.state();
    for (const char* bad : {"{f = print}", "{x = 0/0}", "{x = 1/0}", "{[1] = 1, [3] = 3}", "{a = {}, [true] = 1}",
                            "{s = '\\255'}", "setmetatable({}, {})"}) {
        INFO(bad);
        t.host.run_string(std::string("__bad = ") + bad);
        push_global(t, "__bad");
        REQUIRE_FALSE(lua_isnil(L, -1));
        const std::string dom = error_of([&] { game_state::to_canonical_json_via_dom(L, -1); });
        const std::string direct = error_of([&] { game_state::to_canonical_json(L, -1); });
        CHECK(dom != "(no error)");
        CHECK(direct == dom);
        CHECK_FALSE(game_state::try_canonical_json(L, -1, 1000).has_value());
        lua_pop(L, 1);
    }
    t.host.run_string("__shared = {} __bad = {a = __shared, b = __shared}");
    push_global(t, "__bad");
    CHECK(error_of([&] { game_state::to_canonical_json(L, -1); }) ==
          error_of([&] { game_state::to_canonical_json_via_dom(L, -1); }));
    lua_pop(L, 1);
    // try_canonical_json: plain data up to a size, nothing past it.
    t.host.run_string("__big = {} for i = 1, 100 do __big[i] = 'abcdefgh' end");
    push_global(t, "__big");
    REQUIRE(lua_istable(L, -1));
    CHECK(game_state::try_canonical_json(L, -1, 100000) == game_state::to_canonical_json_via_dom(L, -1));
    CHECK_FALSE(game_state::try_canonical_json(L, -1, 100).has_value());
    lua_pop(L, 1);
    const int top = lua_gettop(L);
    for (const char* bad : {"{\"a\":", "{\"a\":01}", "{\"a\":1}x", "{\"a\":\"\\x\"}", "[1,]", "{\"a\" 1}", "-", "1.", "\"\xff\""}) {
        INFO(bad);
        const std::string dom = error_of([&] { game_state::push_from_json_via_dom(L, bad); });
        CHECK(dom != "(no error)");
        CHECK(error_of([&] { game_state::push_from_json(L, bad); }) == dom);
        CHECK(lua_gettop(L) == top);
    }
    // Whitespace, escapes and numbers nlohmann reads: the same values.
    for (const char* good : {" { \"a\" : [ 1 , 2.5e3 , -0 , true , null , \"x\\u00e9\\n\" ] } ", "{\"n\":18446744073709551615}",
                             "{\"n\":1e400000000000000000000}", "[]"}) {
        INFO(good);
        const std::string dom = error_of([&] {
            game_state::push_from_json_via_dom(L, good);
            const std::string text = game_state::to_canonical_json_via_dom(L, -1);
            lua_pop(L, 1);
            throw std::runtime_error(text);
        });
        const std::string direct = error_of([&] {
            game_state::push_from_json(L, good);
            const std::string text = game_state::to_canonical_json_via_dom(L, -1);
            lua_pop(L, 1);
            throw std::runtime_error(text);
        });
        CHECK(direct == dom);
    }
}

// A state nested 100,000 levels deep overflowed the C stack, reading (`run --state`, a journal's
// recorded state) and writing (`--save-state` of a state rule code built that deep): a SIGSEGV,
// of the whole process without the worker. Past bus::kMaxJsonDepth (256) levels both are refused
// (session 33, found by h4's journal attacks).
TEST_CASE("a state nested past 256 levels is refused, read or written, and one within is kept", "[state]") {
    TestHost t;
    lua_State* L = t.host.state();
    const int top = lua_gettop(L);
    const auto nested = [](int levels, const char* inner) {
        return "{\"a\":" + std::string(static_cast<std::size_t>(levels), '[') + inner +
               std::string(static_cast<std::size_t>(levels), ']') + "}";
    };
    for (const char* inner : {"1", "\"\\n\""}) {  // the direct reader, and the DOM (an escape)
        INFO(inner);
        const std::string deep = nested(100000, inner);
        CHECK_THAT(error_of([&] { game_state::push_from_json(L, deep); }), Catch::Contains("nested deeper than 256 levels"));
        CHECK_THAT(error_of([&] { game_state::push_from_json_via_dom(L, deep); }), Catch::Contains("nested deeper than 256 levels"));
        lua_newtable(L);
        CHECK_THAT(error_of([&] { game_state::replace_from_json(L, -1, deep); }),
                   Catch::Contains("game state file: nested deeper than 256 levels"));
        lua_pop(L, 1);
        CHECK(lua_gettop(L) == top);
        // 255 levels of arrays in the top object: 256 in all, kept.
        const std::string within = nested(255, inner);
        game_state::push_from_json(L, within);
        CHECK(game_state::to_canonical_json(L, -1) == within);
        lua_pop(L, 1);
        CHECK_THAT(error_of([&] { game_state::push_from_json(L, nested(256, inner)); }),
                   Catch::Contains("nested deeper than 256 levels"));
    }
    for (const int levels : {100000, 256}) {
        INFO(levels);
        t.host.run_string("local t = {} __deep = t for i = 1, " + std::to_string(levels) + " do local n = {} t[1] = n t = n end");
        push_global(t, "__deep");
        CHECK_THAT(error_of([&] { game_state::to_canonical_json(L, -1); }),
                   Catch::Contains("tables nested deeper than 256 levels cannot be part of the game state"));
        CHECK_THAT(error_of([&] { game_state::to_canonical_json_via_dom(L, -1); }), Catch::Contains("nested deeper than 256 levels"));
        CHECK_FALSE(game_state::try_canonical_json(L, -1, 100000000).has_value());
        lua_pop(L, 1);
    }
    t.host.run_string("local t = {} __deep = t for i = 1, 255 do local n = {} t[1] = n t = n end");
    push_global(t, "__deep");
    CHECK(game_state::to_canonical_json(L, -1).size() == 2 * 255 + 2);  // [[...[{}]...]]
    lua_pop(L, 1);
    CHECK(lua_gettop(L) == top);
}
