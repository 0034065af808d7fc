// umpire.bus, umpire.cite and umpire.journal through Lua.
#include <catch2/catch.hpp>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bindings/GameLog.hpp"
#include "tests/support/helpers.hpp"

using test_helpers::TestHost;

TEST_CASE("umpire.cite puts the rule in the journal", "[api][bus]") {
    TestHost t;
    CHECK(t.eval("umpire.journal.cited('A9.7')") == "false");
    t.host.run_string("umpire.cite('A9.7', 'Original DR 11 >= B# 11: the MMG malfunctions')");
    CHECK(t.eval("umpire.journal.cited('A9.7')") == "true");
    CHECK(t.eval("umpire.journal.lines()[1]") ==
          "[A9.7] Original DR 11 >= B# 11: the MMG malfunctions");
    t.host.run_string("umpire.note('the German MPh ends') umpire.result('squad breaks', {broken = true}, 'A10.3')");
    CHECK(t.eval("umpire.journal.size()") == "3");
    CHECK(t.eval("umpire.journal.cited('A10.3')") == "true");
}

TEST_CASE("umpire.cite with values formats its pattern only when the journal is on", "[api][bus]") {
    TestHost t;
    // A counter of __tostring calls shows whether the line was built.
    t.host.run_string(R"(
        rendered = 0
        pipeline = setmetatable({}, {__tostring = function() rendered = rendered + 1 return "+2 DRM" end})
        umpire.cite('A7.3', '%s: DR %d %s = %d', 'attack', 7, pipeline, 9)
    )");
    CHECK(t.eval("umpire.journal.lines()[1]") == "[A7.3] attack: DR 7 +2 DRM = 9");
    CHECK(t.eval("rendered") == "1");
    // Without values the text is taken as it is (no pattern): a lone % stays.
    t.host.run_string("umpire.cite('A1', '100% of the FP')");
    CHECK(t.eval("umpire.journal.lines()[2]") == "[A1] 100% of the FP");
    t.host.extension<umpire::GameLog>().set_journaling(false);
    t.host.run_string("umpire.cite('A7.3', '%s: DR %d %s = %d', 'attack', 7, pipeline, 9)");
    CHECK(t.eval("rendered") == "1");
    CHECK(t.eval("umpire.journal.size()") == "2");
    // The rule is still checked when nothing is journaled.
    CHECK_THROWS_WITH(t.host.run_string("umpire.cite(nil, 'x %d', 1)"), Catch::Contains("bad argument #1"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.cite('A1', {})"), Catch::Contains("bad argument #2"));
    // Strings seen before skip the check, and still only they do: a known rule or text next to a
    // bad argument is the same error.
    t.host.run_string("for _ = 1, 3 do umpire.cite('A7.3', '%s: DR %d %s = %d', 'attack', 7, pipeline, 9) end");
    CHECK_THROWS_WITH(t.host.run_string("umpire.cite('A7.3', {})"), Catch::Contains("bad argument #2"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.cite('A7.3', true)"), Catch::Contains("bad argument #2"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.cite(nil, '%s: DR %d %s = %d', 1)"), Catch::Contains("bad argument #1"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.cite({}, 'A7.3')"), Catch::Contains("bad argument #1"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.cite(false, 'A7.3')"), Catch::Contains("bad argument #1"));
    t.host.run_string("umpire.cite(7, 3) umpire.cite('A7.3')");
    CHECK(t.eval("rendered") == "1");
    CHECK(t.eval("umpire.journal.size()") == "2");
    // Journaling on again: citations are journaled again (the Lua half reads the same flag).
    t.host.extension<umpire::GameLog>().set_journaling(true);
    t.host.run_string("umpire.cite('A7.4', '%s again', 'cited')");
    CHECK(t.eval("umpire.journal.lines()[3]") == "[A7.4] cited again");
}

TEST_CASE("modifier pipelines read like the rulebook and are journaled with citations", "[api][bus]") {
    TestHost t;
    const std::string m =
        "umpire.bus.modifiers('IFT DRM', 'DRM'):add(-1, 'FFNAM', 'A4.6'):add(3, 'TEM', 'B13.3')";
    CHECK(t.eval("tostring(" + m + ")") == "+2 DRM (-1 [FFNAM] +3 [TEM])");
    CHECK(t.eval(m + ":total()") == "2");
    CHECK(t.eval("umpire.journal.explain():find('-1 [FFNAM] (A4.6)', 1, true) ~= nil") == "true");
    CHECK(t.eval("umpire.bus.modifiers('FP', 'FP'):start(8, '4-6-7 + MMG'):halve('down', 'Area Fire', 'A7.23'):total()") == "4");
    REQUIRE_THROWS_WITH(t.host.run_string("umpire.bus.modifiers('FP'):halve('sideways')"),
                        Catch::Contains("down"));
}

// A pipeline that only starts and adds keeps its total in Lua (fast_modifiers.lua); any other
// step, or numbers past 2^52, go through core's ModifierPipeline. Random pipelines are built from
// a script of steps; their total is checked against the sum computed here in C++ and against the
// running totals core reports step by step (m:steps(), computed by core from the same steps).
TEST_CASE("modifier totals kept in Lua agree with core's pipeline", "[api][bus]") {
    TestHost t;
    std::mt19937_64 rng(20261124);
    const std::vector<double> big = {0, 1, -1, 7, -12, 4503599627370495.0, -4503599627370495.0,
                                     4503599627370496.0, 9007199254740992.0, -9007199254740992.0};
    for (int trial = 0; trial < 300; ++trial) {
        std::string code = "local m = umpire.bus.modifiers('T') ";
        long double expected = 0;
        bool general = false;  // a step core computes that is not a plain sum
        const int steps = static_cast<int>(rng() % 6);
        if (rng() % 3 == 0) {
            const double base = static_cast<double>(static_cast<int>(rng() % 21) - 10);
            code += "m:start(" + std::to_string(static_cast<long long>(base)) + ", 'base') ";
            expected = base;
        }
        for (int i = 0; i < steps; ++i) {
            const int kind = static_cast<int>(rng() % 8);
            if (kind == 0) {
                code += "m:at_most(3, 'cap') ";
                general = true;
            } else if (kind == 1) {
                code += "m:halve('down', 'half') ";
                general = true;
            } else {
                const double v = kind == 2 ? big[rng() % big.size()] : static_cast<double>(static_cast<int>(rng() % 13) - 6);
                char number[64];
                std::snprintf(number, sizeof number, "%.0f", v);
                code += std::string("m:add(") + number + ", 'step') ";
                expected += v;
                // past 2^52 core's int64 total is read back as a double: compared with core only
                if (v >= 4503599627370496.0 || v <= -4503599627370496.0) general = true;
            }
        }
        code += "local steps = m:steps() local last = #steps > 0 and steps[#steps].after or 0 "
                "return string.format('%.0f %.0f', m:total(), last)";
        INFO(code);
        std::string got;
        try {
            got = t.eval("(function() " + code + " end)()");
        } catch (const std::exception& e) {
            // Only core may refuse, and only for an int64 overflow.
            CHECK_THAT(e.what(), Catch::Contains("overflows int64"));
            continue;
        }
        const auto space = got.find(' ');
        REQUIRE(space != std::string::npos);
        CHECK(got.substr(0, space) == got.substr(space + 1));  // Lua's total == core's last step
        if (!general) {
            char sum[64];
            std::snprintf(sum, sizeof sum, "%.0Lf", expected);
            CHECK(got.substr(0, space) == sum);
        }
    }
    // A start that is not the first step is still refused (by core, at total()).
    CHECK_THROWS_WITH(t.host.run_string("umpire.bus.modifiers('T'):add(1, 'a'):start(2, 'b'):total()"),
                      Catch::Contains("start_from must be the first step"));
}

TEST_CASE("events run by priority, may change the payload and cancel", "[api][bus]") {
    TestHost t;
    CHECK(t.eval(R"((function()
        local order = {}
        umpire.bus.on('fire', function(ev) order[#order+1] = 'low'; ev.payload.drm = ev.payload.drm + 1 end, {priority = 1})
        umpire.bus.on('fire', function(ev) order[#order+1] = 'high'; ev.payload.drm = 10 end, {priority = 5})
        local ev = umpire.bus.emit('fire', {drm = 0})
        return table.concat(order, ',') .. ' ' .. ev.payload.drm .. ' ' .. tostring(ev.cancelled)
    end)())") == "high,low 11 false");
    CHECK(t.eval(R"((function()
        local seen = {}
        umpire.bus.on('move', function(ev) seen[#seen+1] = 'a'; ev:cancel() end, {priority = 2})
        umpire.bus.on('move', function(ev) seen[#seen+1] = 'b' end, {priority = 1})
        umpire.bus.on('move', function(ev) seen[#seen+1] = 'c' end, {priority = 0, sees_cancelled = true})
        local mv = umpire.bus.emit('move')
        return table.concat(seen, ',') .. ' ' .. tostring(mv.cancelled)
    end)())") == "a,c true");
    CHECK(t.eval(R"((function()
        local id = umpire.bus.on('x', function() end)
        return tostring(umpire.bus.off(id)) .. ' ' .. tostring(umpire.bus.off(id))
    end)())") == "true false");
}

TEST_CASE("an error in a handler reaches the emitter with its file and line", "[api][bus]") {
    TestHost t;
    t.host.run_string("umpire.bus.on('boom', function() error('handler failed') end)");
    REQUIRE_THROWS_WITH(t.host.run_string("umpire.bus.emit('boom')"), Catch::Contains("handler failed"));
}
