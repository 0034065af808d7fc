// OutcomeReader (app/ScriptOutcome.hpp) against to_outcome, the plain way of reading what an odds
// script returned: over random results (scalars and tables of random names and values, the
// awkward numbers and strings included), read once and again from its kept outcomes, it gives the
// same outcome and the same key, and the same error for what is not an outcome.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "app/ScriptOutcome.hpp"

namespace {

using umpire::odds_runner::OutcomeReader;
using umpire::odds_runner::to_outcome;

struct State {
    lua_State* L = luaL_newstate();
    ~State() { lua_close(L); }
};

const std::vector<double> kNumbers = {0.0, -0.0, 1, 7, -3, 2.5, 0.1, 1e300, -1e-300, 9007199254740992.0,
                                      9007199254740994.0, std::numeric_limits<double>::infinity(),
                                      -std::numeric_limits<double>::infinity(), std::nan("")};
const std::vector<std::string> kTexts = {"", "1KIA", "7", "true", "say \"hi\"", "back\\slash", "a,b=c", "K/2",
                                         "caf\xc3\xa9"};
const std::vector<std::string> kNames = {"ift", "malfunction", "keeps_rof", "a", "ab", "b", "A", "a b", "x\"y", ""};

void push_scalar(lua_State* L, std::mt19937& rng) {
    switch (rng() % 4) {
        case 0: lua_pushboolean(L, rng() % 2); break;
        case 1: lua_pushnumber(L, kNumbers[rng() % kNumbers.size()]); break;
        case 2: {
            const std::string& s = kTexts[rng() % kTexts.size()];
            lua_pushlstring(L, s.data(), s.size());
            break;
        }
        default: lua_pushnumber(L, static_cast<double>(static_cast<int>(rng() % 2001) - 1000) / 8);
    }
}

// A random result: nil, a scalar, or a table of up to five fields.
void push_result(lua_State* L, std::mt19937& rng) {
    const unsigned kind = rng() % 6;
    if (kind == 0) return lua_pushnil(L);
    if (kind == 1) return push_scalar(L, rng);
    lua_newtable(L);
    for (unsigned n = rng() % 6; n > 0; --n) {
        push_scalar(L, rng);
        lua_setfield(L, -2, kNames[rng() % kNames.size()].c_str());
    }
}

}  // namespace

TEST_CASE("OutcomeReader gives to_outcome's outcome and key, first time and kept", "[odds][outcome]") {
    State s;
    OutcomeReader reader;
    std::mt19937 rng(20261124);
    for (int i = 0; i < 3000; ++i) {
        push_result(s.L, rng);
        const int top = lua_gettop(s.L);
        // A result holding NaN or an infinity is refused (no mean, no order): by both, in one text.
        std::string refused;
        umpire::odds::Outcome plain;
        try {
            plain = to_outcome(s.L, top);
        } catch (const std::exception& e) {
            refused = e.what();
        }
        if (!refused.empty()) {
            INFO("result " << i << ": " << refused);
            CHECK(refused.find("an odds script's numbers must be finite") != std::string::npos);
            CHECK_THROWS_WITH(reader.read(s.L, top), refused);
            CHECK_THROWS_WITH(reader.read(s.L, top), refused);
            lua_settop(s.L, 0);
            continue;
        }
        const umpire::odds::Outcome first = reader.read(s.L, top);
        const umpire::odds::Outcome again = reader.read(s.L, top);
        INFO("result " << i << ": " << plain.key());
        CHECK(lua_gettop(s.L) == top);
        CHECK(first.key() == plain.key());
        CHECK(again.key() == plain.key());
        CHECK(first == plain);
        CHECK(again == plain);
        CHECK(first.display() == plain.display());
        lua_settop(s.L, 0);
        if (i % 50 == 0) lua_gc(s.L, LUA_GCCOLLECT, 0);
    }
}

TEST_CASE("OutcomeReader refuses what is not an outcome as to_outcome does", "[odds][outcome]") {
    State s;
    OutcomeReader reader;
    const auto same_error = [&](const char* expected) {
        const int top = lua_gettop(s.L);
        REQUIRE_THROWS_WITH(to_outcome(s.L, top), Catch::Contains(expected));
        REQUIRE_THROWS_WITH(reader.read(s.L, top), Catch::Contains(expected));
        lua_settop(s.L, 0);
    };
    lua_newtable(s.L);  // a function as the result
    lua_pushcfunction(s.L, [](lua_State*) { return 0; });
    same_error("the script's result is a function");
    lua_newtable(s.L);  // {1KIA = true, [1] = 2}
    lua_pushboolean(s.L, 1);
    lua_setfield(s.L, -2, "ift");
    lua_pushnumber(s.L, 2);
    lua_rawseti(s.L, -2, 1);
    same_error("must have string keys");
    lua_newtable(s.L);  // {ift = {}}
    lua_newtable(s.L);
    lua_setfield(s.L, -2, "ift");
    same_error("field 'ift' of the script's result is a table");
    lua_pushnumber(s.L, std::nan(""));
    same_error("the script's result is NaN: an odds script's numbers must be finite");
    lua_newtable(s.L);  // {a = -inf}
    lua_pushnumber(s.L, -std::numeric_limits<double>::infinity());
    lua_setfield(s.L, -2, "a");
    same_error("field 'a' of the script's result is -inf");
}

// The reader finds a result it has seen by the addresses of its strings, so it keeps every string
// it has a print of alive: were one collected, a new string could take its address and read as the
// old one. Results with a new string each, collected after each read, still read as themselves.
TEST_CASE("OutcomeReader's prints outlive the results they were made from", "[odds][outcome]") {
    State s;
    OutcomeReader reader;
    for (int i = 0; i < 2000; ++i) {
        lua_newtable(s.L);
        lua_pushfstring(s.L, "r%d", i);
        lua_setfield(s.L, -2, "ift");
        lua_pushfstring(s.L, "s%d", 2000 - i);
        lua_setfield(s.L, -2, "why");
        const int top = lua_gettop(s.L);
        const umpire::odds::Outcome plain = to_outcome(s.L, top);
        INFO("result " << i << ": " << plain.key());
        CHECK(reader.read(s.L, top).key() == plain.key());
        CHECK(reader.read(s.L, top).key() == plain.key());
        lua_settop(s.L, 0);
        lua_gc(s.L, LUA_GCCOLLECT, 0);
    }
}
