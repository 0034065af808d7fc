// umpire draw's bindings half: a scenario file drawn as SVG, with the notes and arrows a ruleset
// adds through umpire.hooks "draw", and clear errors when a ruleset's overlay is wrong.
#include <catch2/catch.hpp>

#include "app/ScenarioDraw.hpp"
#include "tests/support/helpers.hpp"
#include "ruleset/Load.hpp"

namespace {
namespace fs = std::filesystem;

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// A ruleset whose only module answers the draw hook with `body` (Lua, sees scenario and overlay).
fs::path ruleset_with_draw_hook(const std::string& tag, const std::string& body) {
    const fs::path dir = test_helpers::scratch_root() / ("draw-" + tag);
    fs::remove_all(dir);
    fs::create_directories(dir / "rules");
    fs::create_directories(dir / "scenarios");
    test_helpers::write(dir / "ruleset.yaml", "name: drawn\nversion: 1.0\nmodules: [rules/labels.lua]\n");
    test_helpers::write(dir / "rules" / "labels.lua",
                        "umpire.hooks.on('draw', function(scenario, overlay)\n" + body + "\nend)\nreturn {}\n");
    test_helpers::write(dir / "scenarios" / "s.yaml",
                        "name: s\nmap:\n  hexes:\n    K6: woods\n    K7: open\nlabel: K7\n");
    return dir;
}

}  // namespace

TEST_CASE("draw: a ruleset's draw hook adds notes and arrows, the flags reach it", "[draw]") {
    const fs::path dir = ruleset_with_draw_hook(
        "ok", "if overlay.path then overlay.notes[#overlay.notes + 1] = {hex = scenario.label, text = '3 MP'} end\n"
              "overlay.arrows[#overlay.arrows + 1] = {from = 'K6', to = 'K7', text = '+1 MP'}");
    umpire::LuaHost rules;
    umpire::ruleset::load(rules, {dir.string()});
    umpire::DrawOptions o;
    const std::string plain = umpire::draw_scenario(dir / "scenarios" / "s.yaml", o, &rules);
    CHECK(count(plain, "class=\"note\"") == 0);
    CHECK(count(plain, ">+1 MP</text>") == 1);
    o.path = true;
    const std::string with_path = umpire::draw_scenario(dir / "scenarios" / "s.yaml", o, &rules);
    CHECK(count(with_path, "class=\"note\"") == 1);
    CHECK(count(with_path, ">3 MP</text>") == 1);
    // Without rules, the picture is the scenario's alone.
    CHECK(count(umpire::draw_scenario(dir / "scenarios" / "s.yaml", o), ">+1 MP</text>") == 0);
    // The host is left as it was: drawing twice gives the same picture.
    CHECK(umpire::draw_scenario(dir / "scenarios" / "s.yaml", o, &rules) == with_path);
}

TEST_CASE("draw: a ruleset's bad note or failing hook is an error naming it", "[draw]") {
    umpire::DrawOptions o;
    {
        const fs::path dir = ruleset_with_draw_hook("badhex", "overlay.notes[1] = {hex = 'K99', text = 'x'}");
        umpire::LuaHost rules;
        umpire::ruleset::load(rules, {dir.string()});
        CHECK_THROWS_WITH(umpire::draw_scenario(dir / "scenarios" / "s.yaml", o, &rules),
                          Catch::Contains("s.yaml: the rulesets' draw note 1") && Catch::Contains("K99"));
    }
    {
        const fs::path dir = ruleset_with_draw_hook("nohex", "overlay.arrows[1] = {from = 'K6', text = 'x'}");
        umpire::LuaHost rules;
        umpire::ruleset::load(rules, {dir.string()});
        CHECK_THROWS_WITH(umpire::draw_scenario(dir / "scenarios" / "s.yaml", o, &rules),
                          Catch::Contains("draw arrow 1: expected a hex name string, got nil"));
    }
    {
        const fs::path dir = ruleset_with_draw_hook("raises", "error('no lanes here')");
        umpire::LuaHost rules;
        umpire::ruleset::load(rules, {dir.string()});
        CHECK_THROWS_WITH(umpire::draw_scenario(dir / "scenarios" / "s.yaml", o, &rules),
                          Catch::Contains("labels.lua:2") && Catch::Contains("no lanes here"));
        // The host still works after the failed hook.
        CHECK_NOTHROW(rules.run_string("assert(umpire.hooks)"));
    }
}
