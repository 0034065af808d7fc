// umpire.odds.chain: a plain loop in play, a fold under the exact odds engine, and the same exact
// fractions as the unfolded loop enumerated path by path (random small configurations).
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
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
    // A first step runs once, before the loop, and is not counted in max_steps: 6 (first), then
    // the explosion 6, 6 cut at MAX = 2 steps.
    t.host.run_string("umpire.dice.fix{6, 6, 6, 4}");
    t.host.run_string(R"(local s, cut = umpire.odds.chain{state = {total = 0, last = 0}, max_steps = 2,
      first = function(s) s.last = umpire.dice.d(6); s.total = 100 * s.last end,
      step = function(s) local f = umpire.dice.d(6); s.total = s.total + f; s.last = f end,
      stop = function(s) return s.last ~= 6 end}
      RESULT = s.total .. (cut and ' cut' or '') .. ' ' .. umpire.dice.d(6))");
    CHECK(t.eval("RESULT") == "612 cut 4");
    CHECK_THROWS_WITH(t.host.run_string("umpire.odds.chain{state = {}, step = print, first = 1}"), Catch::Contains("'first' must be a function"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.odds.chain{state = 1, step = print}"), Catch::Contains("'state' must be a table"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.odds.chain{state = {}, step = 1}"), Catch::Contains("'step' must be a function"));
}

// The reference is the Lua loop the three shipped chains used before umpire.odds.write_back, run
// on random tables (keys drawn from a small set, so removals, additions and the kept key all occur).
TEST_CASE("umpire.odds.write_back equals the Lua copy loop it replaced, over random tables", "[api][odds]") {
    TestHost t;
    t.host.run_string(R"(
      function reference(into, from, keep)
        for k in pairs(into) do if from[k] == nil and k ~= keep then into[k] = nil end end
        for k, v in pairs(from) do if k ~= keep then into[k] = v end end
      end
      function same(a, b)
        for k, v in pairs(a) do if b[k] ~= v then return false end end
        for k, v in pairs(b) do if a[k] ~= v then return false end end
        return true
      end)");
    std::mt19937 rng(1945);
    const char* keys[] = {"a", "b", "fire_lane", "1", "2"};
    auto random_table = [&] {
        std::string t = "{";
        for (int i = 0; i < 5; ++i)
            if (rng() % 2) t += std::string("[") + (keys[i][0] <= '9' ? keys[i] : "'" + std::string(keys[i]) + "'") + "] = " + std::to_string(rng() % 3) + ", ";
        return t + "}";
    };
    for (int trial = 0; trial < 200; ++trial) {
        const std::string into = random_table(), from = random_table();
        const std::string keep = trial % 2 ? "'fire_lane'" : "nil";
        t.host.run_string("local x, y = " + into + ", " + into + " local f = " + from +
                          " reference(x, f, " + keep + ") umpire.odds.write_back(y, f, " + keep + ") OK = same(x, y)");
        INFO(into << " <- " << from << " keep " << keep);
        CHECK(t.eval("OK") == "true");
    }
    CHECK_THROWS_WITH(t.host.run_string("umpire.odds.write_back(1, {})"), Catch::Contains("table expected"));
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

// A chain's first step (an MG's first shot, fired with its squad; the later shots are the MG's
// alone) against the two ways of writing it without `first`: the first shot in the script before
// the chain (the reference for epsilon: the chain's epsilon and max_steps count after the first
// shot, with that shot's outcome as mass 1), and, without epsilon, the whole loop enumerated path
// by path. Same fractions, same truncated mass; the script runs once per end state.
TEST_CASE("a chain's first step folds as the first step then the chain: same fractions, same truncated mass", "[api][odds]") {
    std::mt19937 random(15);
    int cut_short = 0;  // trials where epsilon cut a chain: the comparison of truncated masses bit
    for (int trial = 0; trial < 16; ++trial) {
        TestHost t;
        const int first_kill = 2 + static_cast<int>(random() % 11), kill = 2 + static_cast<int>(random() % 11);
        const bool cut = trial % 2 == 1;  // epsilon 1/5: cuts the longer chains
        // Longer chains where epsilon may cut them; short enough to enumerate path by path where not.
        const int rof = (cut ? 1 : 0) + static_cast<int>(random() % (cut ? 3 : 4));
        const int cap = (cut ? 3 : 1) + static_cast<int>(random() % 4);
        t.host.run_string("FIRST_KILL, KILL, ROF, CAP, EPSILON = " + std::to_string(first_kill) + ", " +
                          std::to_string(kill) + ", " + std::to_string(rof) + ", " + std::to_string(cap) + ", " +
                          (cut ? "0.2" : "0"));
        const std::string shot = R"(
          local function shot(s, kill)
            local dr = umpire.dice.dr()
            s.shots = s.shots + 1
            if dr.total <= kill then s.kills = s.kills + 1 end
            s.rof = dr.colored <= ROF and s.shots < CAP
          end
          local function stop(s) return not s.rof end
          local function result(s, cut) return s.shots .. "/" .. s.kills .. (cut and " cut" or "") end)";
        const auto with_first = lua_odds(t, shot + R"(
          local s, cut = umpire.odds.chain{state = {shots = 0, kills = 0}, first = function(s) shot(s, FIRST_KILL) end,
            step = function(s) shot(s, KILL) end, stop = stop, max_steps = CAP - 1, epsilon = EPSILON}
          return result(s, cut))");
        const auto before = lua_odds(t, shot + R"(
          local s = {shots = 0, kills = 0}
          shot(s, FIRST_KILL)
          local e, cut = umpire.odds.chain{state = s, step = function(s) shot(s, KILL) end, stop = stop,
            max_steps = CAP - 1, epsilon = EPSILON}
          return result(e, cut))");
        INFO("first kill <= " << first_kill << ", kill <= " << kill << ", ROF " << rof << ", cap " << cap
                              << (cut ? ", epsilon 1/5" : ""));
        CHECK(fractions(with_first) == fractions(before));
        CHECK(with_first.truncated == before.truncated);
        CHECK(with_first.paths <= before.paths);
        if (with_first.truncated > 0) ++cut_short;
        if (!cut) {
            const auto paths = lua_odds(t, shot + R"(
              local s = {shots = 0, kills = 0}
              shot(s, FIRST_KILL)
              while s.rof do shot(s, KILL) end
              return result(s, false))");
            CHECK(fractions(with_first) == fractions(paths));
        }
    }
    CHECK(cut_short >= 3);
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

TEST_CASE("a step that reads outside its state is refused", "[api][odds]") {
    TestHost t;
    CHECK_THROWS_WITH(lua_odds(t, R"(
      local calls = {n = 0}
      local s = umpire.odds.chain{state = {x = 0}, max_steps = 2, step = function(s)
        calls.n = calls.n + 1; s.x = s.x + umpire.dice.d(2) + calls.n % 2 end}
      return s.x)"),
                      Catch::Contains("is not a function of its state and dice"));
}

TEST_CASE("a step that keeps game state in umpire.state folds with it", "[api][odds]") {
    // Three starts, each a DR; a 12 breaks the vehicle down (kept in umpire.state, as rules do).
    const std::string step = R"(
      local function start(s)
        s.starts = s.starts + 1
        if umpire.dice.dr().total == 12 then umpire.state.broken_at = s.starts end
      end)";
    TestHost t;
    const auto folded = lua_odds(t, step + R"(
      umpire.state.broken_at = nil
      local s = umpire.odds.chain{state = {starts = 0}, step = start, max_steps = 3,
                                  stop = function() return umpire.state.broken_at ~= nil end}
      return tostring(umpire.state.broken_at))");
    const auto paths = lua_odds(t, step + R"(
      umpire.state.broken_at = nil
      local s = {starts = 0}
      repeat start(s) until umpire.state.broken_at or s.starts == 3
      return tostring(umpire.state.broken_at))");
    CHECK(fractions(folded) == fractions(paths));
    CHECK(folded.exact_probability(odds::Outcome(std::string("nil"))) == mpq_class(42875, 46656));  // (35/36)^3
    CHECK(folded.paths == 4);
}

TEST_CASE("dice tables in play: the fixed dice are the real faces, re-rolls and explosions included", "[api][odds][diespec]") {
    TestHost t;
    t.host.run_string("umpire.dice.fix{1, 4, 3}");
    // The 1 is re-rolled once (into a 4: a hit); the 3 misses.
    CHECK(t.eval("umpire.dice.count(2, {sides = 6, reroll = {1}, once = true}, 4)") == "1");
    t.host.run_string("umpire.dice.fix{6, 6, 2}");
    CHECK(t.eval("umpire.dice.sum(1, {sides = 6, explode = {6}})") == "14");
    t.host.run_string("umpire.dice.fix{6, 6}");
    CHECK(t.eval("umpire.dice.sum(1, {sides = 6, explode = 6, depth = 1})") == "12");
    t.host.run_string("umpire.dice.fix{3, 1, 6, 5}");
    CHECK(t.eval("umpire.dice.keep(4, 6, 3)") == "14");
    t.host.run_string("umpire.dice.fix{3, 1, 6, 5}");
    CHECK(t.eval("umpire.dice.keep(4, 6, 1, 'lowest')") == "1");
    t.host.run_string("umpire.dice.fix{1, 6}");  // faces {1,1,2,3,5,8}: the 1st and the 6th
    CHECK(t.eval("umpire.dice.sum(2, {faces = {1, 1, 2, 3, 5, 8}})") == "9");
    t.host.run_string("umpire.dice.fix{1, 6, 3}");  // dF: -1, +1, 0
    CHECK(t.eval("umpire.dice.sum(3, {fudge = true})") == "0");
    t.host.run_string("umpire.dice.fix{2, 5}");
    CHECK(t.eval("umpire.dice.count(2, 6, function(face) return face % 2 == 0 end)") == "1");
    CHECK(t.eval("umpire.dice.sum(0, 6)") == "0");
    t.host.run_string("umpire.dice.unfix()");
    CHECK_THROWS_WITH(t.host.run_string("umpire.dice.sum(1, {sides = 6, reroll = {1,2,3,4,5,6}})"), Catch::Contains("never ends"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.dice.keep(2, 6, 3)"), Catch::Contains("k must be a whole number from 0 to 2"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.dice.sum(1, 'd6')"), Catch::Contains("a die is a number of sides or a table"));
}

TEST_CASE("re-roll 1s to hit, then wound: one branch per count, the fractions of a brute force", "[api][odds][diespec]") {
    std::mt19937 random(3);
    for (int trial = 0; trial < 6; ++trial) {
        TestHost t;
        const int shots = 1 + static_cast<int>(random() % 4), to_hit = 2 + static_cast<int>(random() % 5),
                  to_wound = 2 + static_cast<int>(random() % 5);
        const auto r = lua_odds(t, "local hits = umpire.dice.count(" + std::to_string(shots) +
                                       ", {sides = 6, reroll = {1}, once = true}, " + std::to_string(to_hit) +
                                       ") return umpire.dice.count(hits, 6, " + std::to_string(to_wound) + ")");
        // Brute force: every die's faces, its re-roll of a 1, then a wound die per hit.
        std::map<int, mpq_class> expected;
        const std::function<void(int, int, mpq_class)> hit_die = [&](int left, int hits, mpq_class p) {
            if (left == 0) {
                const std::function<void(int, int, mpq_class)> wound = [&](int l, int w, mpq_class q) {
                    if (l == 0) { expected[w] += q; return; }
                    for (int f = 1; f <= 6; ++f) wound(l - 1, w + (f >= to_wound), q / 6);
                };
                wound(hits, 0, p);
                return;
            }
            for (int f = 1; f <= 6; ++f) {
                if (f == 1) {
                    for (int g = 1; g <= 6; ++g) hit_die(left - 1, hits + (g >= to_hit), p / 36);
                } else {
                    hit_die(left - 1, hits + (f >= to_hit), p / 6);
                }
            }
        };
        hit_die(shots, 0, 1);
        std::map<std::string, mpq_class> want;
        for (const auto& [w, p] : expected) want[odds::Outcome(std::to_string(w)).key()] = p;
        INFO(shots << " shots, hit " << to_hit << "+ re-rolling 1s, wound " << to_wound << "+");
        CHECK(fractions(r) == want);
        CHECK(r.paths <= static_cast<std::uint64_t>((shots + 1) * (shots + 1)));
    }
}

// umpire.dice.roll under the odds engine folds to one branch per total. The reference counts every
// face sequence in the test itself (nested loops over the dice, straight from the expression's
// meaning), for random small pools of three forms: a success count, keep highest, a sum plus a
// constant.
TEST_CASE("umpire.dice.roll under odds: one branch per total, the fractions of a brute force", "[api][odds][roll]") {
    TestHost t;
    std::mt19937 rng(1944);
    for (int trial = 0; trial < 12; ++trial) {
        const int n = 1 + static_cast<int>(rng() % 4), sides = 2 + static_cast<int>(rng() % 5);
        const int target = 1 + static_cast<int>(rng() % sides), keep = 1 + static_cast<int>(rng() % n);
        const int plus = static_cast<int>(rng() % 5);
        const int form = trial % 3;
        const std::string expr = form == 0   ? std::to_string(n) + "d" + std::to_string(sides) + ">=" + std::to_string(target)
                                 : form == 1 ? std::to_string(n) + "d" + std::to_string(sides) + "kh" + std::to_string(keep)
                                             : std::to_string(n) + "d" + std::to_string(sides) + "+" + std::to_string(plus);
        INFO(expr);
        std::map<long, long> counts;
        long sequences = 1;
        for (int i = 0; i < n; ++i) sequences *= sides;
        for (long code = 0; code < sequences; ++code) {
            std::vector<int> faces;
            for (long c = code, i = 0; i < n; ++i, c /= sides) faces.push_back(static_cast<int>(c % sides) + 1);
            long value = 0;
            if (form == 0) {
                for (int f : faces) value += f >= target;
            } else if (form == 1) {
                std::sort(faces.rbegin(), faces.rend());
                for (int i = 0; i < keep; ++i) value += faces[static_cast<std::size_t>(i)];
            } else {
                for (int f : faces) value += f;
                value += plus;
            }
            ++counts[value];
        }
        const auto r = lua_odds(t, "return (umpire.dice.roll('" + expr + "'))");
        std::map<std::string, mpq_class> expected;
        for (const auto& [value, count] : counts) expected[odds::Outcome(std::to_string(value)).key()] = mpq_class(count, sequences);
        for (auto& [k, q] : expected) q.canonicalize();
        CHECK(fractions(r) == expected);
        CHECK(r.paths == counts.size());  // folded: a path per total, not per face sequence
    }
    // The faces of a folded roll are not known: using them is an error that says why.
    CHECK_THROWS_WITH(lua_odds(t, "local _, faces = umpire.dice.roll('3d6') return #faces"),
                      Catch::Contains("only its total is enumerated"));
    CHECK_THROWS_WITH(lua_odds(t, "local _, _, shown = umpire.dice.roll('3d6') return 'x' .. shown"),
                      Catch::Contains("umpire.dice.roll(\"3d6\")"));
}

