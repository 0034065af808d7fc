// umpire.bus, umpire.cite and umpire.journal through Lua.
#include <catch2/catch.hpp>

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
