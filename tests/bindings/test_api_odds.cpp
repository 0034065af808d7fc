// umpire.odds.chain: a plain loop in play, a fold under the exact odds engine, and the same exact
// fractions as the unfolded loop enumerated path by path (random small configurations).
#include <catch2/catch.hpp>

#include <memory>
#include <random>

#include "core/odds/EnumeratingSource.hpp"
#include "core/odds/Exact.hpp"
#include "tests/support/helpers.hpp"

using test_helpers::TestHost;
using namespace umpire;

namespace {

// The exact odds of `body` (Lua statements ending in a return of a string or number), each path
// run in the host with the enumerating source as its dice.
odds::Result lua_odds(TestHost& t, const std::string& body) {
    t.host.run_string("function __odds_script() " + body + " end");
    auto r = odds::enumerate([&](dice::DieSource& d) {
        t.host.set_die_source(std::shared_ptr<dice::DieSource>(&d, [](dice::DieSource*) {}));
        const std::string value = t.eval("__odds_script()");
        t.host.set_die_source(nullptr);
        return odds::Outcome(value);
    });
    REQUIRE(r.has_value());
    return *r;
}

std::map<std::string, mpq_class> fractions(const odds::Result& r) {
    std::map<std::string, mpq_class> m;
    for (const auto& o : r.outcomes) m[o.key] = o.exact;
    return m;
}

const char* const kExplode = R"(
  local s, cut = umpire.odds.chain{state = {total = 0, last = 0}, max_steps = MAX,
    step = function(s) local f = umpire.dice.d(6); s.total = s.total + f; s.last = f end,
    stop = function(s) return s.last ~= 0 and s.last ~= 6 end}
)";

}  // namespace

TEST_CASE("umpire.odds.chain in play is a loop over real dice", "[api][odds]") {
    TestHost t;
    t.host.run_string("MAX = 10");
    t.host.run_string("umpire.dice.fix{6, 6, 3}");
    t.host.run_string(std::string(kExplode) + " RESULT = s.total .. (cut and ' cut' or '')");
    CHECK(t.eval("RESULT") == "15");
    t.host.run_string("MAX = 2 umpire.dice.fix{6, 6}");
    t.host.run_string(std::string(kExplode) + " RESULT = s.total .. (cut and ' cut' or '')");
    CHECK(t.eval("RESULT") == "12 cut");
    CHECK_THROWS_WITH(t.host.run_string("umpire.odds.chain{state = 1, step = print}"), Catch::Contains("'state' must be a table"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.odds.chain{state = {}, step = 1}"), Catch::Contains("'step' must be a function"));
}

TEST_CASE("a folded exploding d6 matches its brute force, with the truncated mass exact", "[api][odds]") {
    TestHost t;
    t.host.run_string("MAX = 4");
    const auto r = lua_odds(t, std::string(kExplode) + " return s.total");
    // Brute force: totals 6k + f for f in 1..5 with probability (1/6)^(k+1), k < 4; 24 when cut.
    std::map<std::string, mpq_class> expected;
    mpq_class p(1, 6);
    for (int k = 0; k < 4; ++k, p /= 6)
        for (int f = 1; f <= 5; ++f) expected[std::to_string(6 * k + f)] += p;
    expected["24"] += mpq_class(1, 1296);
    std::map<std::string, mpq_class> got;
    for (const auto& o : r.outcomes) got[std::get<std::string>(o.outcome.scalar())] = o.exact;
    CHECK(got == expected);
    CHECK(r.truncated == mpq_class(1, 1296));
    CHECK(r.paths == expected.size());  // one path per distinct end state, not per face sequence
}

TEST_CASE("a folded ROF chain gives the fractions of the same loop enumerated path by path", "[api][odds]") {
    std::mt19937 random(7);
    for (int trial = 0; trial < 12; ++trial) {
        TestHost t;
        const int kill = 2 + static_cast<int>(random() % 11), rof = static_cast<int>(random() % 4), cap = 1 + static_cast<int>(random() % 3);
        t.host.run_string("KILL, ROF, CAP = " + std::to_string(kill) + ", " + std::to_string(rof) + ", " + std::to_string(cap));
        const std::string step = R"(
          local function shot(s)
            local dr = umpire.dice.dr()
            s.shots = s.shots + 1
            if dr.total <= KILL then s.kills = s.kills + 1 end
            s.rof = dr.colored <= ROF and s.shots < CAP
          end)";
        const auto folded = lua_odds(t, step + R"(
          local s = umpire.odds.chain{state = {shots = 0, kills = 0, rof = true}, step = shot,
                                      stop = function(s) return not s.rof end}
          return s.shots .. "/" .. s.kills)");
        const auto paths = lua_odds(t, step + R"(
          local s = {shots = 0, kills = 0, rof = true}
          repeat shot(s) until not s.rof
          return s.shots .. "/" .. s.kills)");
        INFO("kill <= " << kill << ", ROF " << rof << ", cap " << cap);
        CHECK(fractions(folded) == fractions(paths));
        CHECK(folded.paths <= paths.paths);
    }
}

TEST_CASE("a chain nested in a step folds too", "[api][odds]") {
    TestHost t;
    // Two turns; each turn explodes a d3 up to depth 3: the total of the two turns.
    const auto r = lua_odds(t, R"(
      local function explode()
        return umpire.odds.chain{state = {t = 0, last = 3}, max_steps = 3,
          step = function(s) s.last = umpire.dice.d(3); s.t = s.t + s.last end,
          stop = function(s) return s.last ~= 3 end}.t
      end
      local s = umpire.odds.chain{state = {sum = 0, turn = 0}, max_steps = 2,
        step = function(s) s.sum = s.sum + explode(); s.turn = s.turn + 1 end}
      return s.sum)");
    // Brute force one turn, then convolve two.
    std::map<int, mpq_class> turn;
    const std::function<void(int, int, mpq_class)> walk = [&](int total, int rolled, mpq_class p) {
        for (int f = 1; f <= 3; ++f) {
            if (f != 3 || rolled + 1 == 3) turn[total + f] += p / 3;
            else walk(total + f, rolled + 1, p / 3);
        }
    };
    walk(0, 0, 1);
    std::map<std::string, mpq_class> expected;
    for (const auto& [a, pa] : turn)
        for (const auto& [b, pb] : turn) expected[std::to_string(a + b)] += pa * pb;
    std::map<std::string, mpq_class> got;
    for (const auto& o : r.outcomes) got[std::get<std::string>(o.outcome.scalar())] = o.exact;
    CHECK(got == expected);
}

TEST_CASE("a step that reads outside its state, or changes umpire.state, is refused", "[api][odds]") {
    TestHost t;
    CHECK_THROWS_WITH(lua_odds(t, R"(
      local calls = {n = 0}
      local s = umpire.odds.chain{state = {x = 0}, max_steps = 2, step = function(s)
        calls.n = calls.n + 1; s.x = s.x + umpire.dice.d(2) + calls.n % 2 end}
      return s.x)"),
                      Catch::Contains("is not a function of its state and dice"));
    CHECK_THROWS_WITH(lua_odds(t, R"(
      local s = umpire.odds.chain{state = {x = 0}, max_steps = 2, step = function(s)
        umpire.state.seen = true; s.x = s.x + umpire.dice.d(2) end}
      return s.x)"),
                      Catch::Contains("changed umpire.state"));
}
