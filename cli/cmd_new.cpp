// umpire new house-rule NAME --extends PARENT [--dir DIR]: a ruleset folder that extends PARENT
// with one overridden data value, one overridden rule function (a module named like the parent's,
// extending it through umpire.base: never a copy), one spec test and one odds comparison script,
// all passing as written. The starting point of a house rule; docs/rulesets.md explains the parts.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>

#include "cli/Common.hpp"
#include "ruleset/Shared.hpp"

namespace umpire::cli {
namespace fs = std::filesystem;

namespace {

struct Template {
    std::string description;
    std::string data_file, data;      // data/<file>: merged over the parent's file of that name
    std::string module_file, module;  // rules/<file>: extends the parent's module of that name
    std::string test;                 // tests/house.lua
    std::string compare;              // odds/compare.lua
};

// @NAME@ is replaced by the house rule's name, @PARENT@ by the parent's.
const std::map<std::string, Template>& templates() {
    static const std::map<std::string, Template> t = {
        {"asl",
         {"House rule over asl: the German MMG breaks down only on 12 (asl: B11), and an Inexperienced "
          "crew does not lower a MG's B# (asl: -1, A19.32)",
          "sw_mg.yaml",
          R"LUA(# Merged over @PARENT@'s data/sw_mg.yaml: only the values below change (the German MMG's B#).
counters:
  ger_mmg: {B: 12}
)LUA",
          "breakdown.lua",
          R"LUA(-- Extends @PARENT@'s rules/breakdown.lua (nothing is copied: every function not redefined
-- here is the parent's). House rule: an Inexperienced crew does not lower a MG's B# (A19.32).
-- The other rules reach this module through umpire.rules.breakdown, so they see the override.
local base = umpire.base("breakdown")
local house = setmetatable({}, {__index = base})

--- Effective B#, X#, LA#: the parent's, ignoring the Inexperienced row.
function house.effective(weapon, cond)
  if cond and cond.inexperienced then
    local without = {}
    for k, v in pairs(cond) do if k ~= "inexperienced" then without[k] = v end end
    umpire.cite("HOUSE-@NAME@", (weapon.name or "weapon") .. ": an Inexperienced crew does not lower the B#")
    cond = without
  end
  return base.effective(weapon, cond)
end

return house
)LUA",
          R"LUA(-- Spec tests of the house rule @NAME@ (umpire test --ruleset <this folder>).
local R = umpire.rules

test("@NAME@: the German MMG is B12 (@PARENT@: B11); its other values are @PARENT@'s", function()
  eq(umpire.data.sw_mg.counters.ger_mmg.B, 12)
  eq(umpire.data.sw_mg.counters.ger_mmg.fp, 5)
  eq(umpire.data.sw_mg.counters.ger_hmg.B, 12)
end)

test("@NAME@: an Inexperienced crew's MMG does not break on an Original DR 11", function()
  local mmg = R.mg_usage.counter("ger_mmg")
  umpire.dice.fix{5, 6}
  eq(R.sw_malfunction.check(mmg, umpire.dice.dr(), {inexperienced = true}).malfunctioned, false)
  ok(umpire.journal.cited("HOUSE-@NAME@"))
end)

test("@NAME@: other breakdown rows still apply (Sustained Fire: B10)", function()
  local mmg = R.mg_usage.counter("ger_mmg")
  umpire.dice.fix{5, 5}
  eq(R.sw_malfunction.check(mmg, umpire.dice.dr(), {sustained = true}).malfunctioned, true)
end)
)LUA",
          R"LUA(-- Odds of a German MMG with an Inexperienced crew breaking down, @PARENT@ against @NAME@:
--   umpire odds --ruleset @PARENT@ <this file> --compare <the @NAME@ folder>
local R = umpire.rules
local mmg = R.mg_usage.counter("ger_mmg")
local r = R.sw_malfunction.check(mmg, umpire.dice.dr(), {inexperienced = true})
return {malfunction = (r.malfunctioned or r.removed) and true or false}
)LUA"}},
        {"bolt-action",
         {"House rule over bolt-action: the MG42 fires 5 shots (bolt-action: 4, as an LMG), and a "
          "heavy machine gun has Pen +2 (bolt-action: +1)",
          "weapons.yaml",
          R"LUA(# Merged over @PARENT@'s data/weapons.yaml: only the MG42's shots change.
weapons:
  mg42: {shots: 5}
)LUA",
          "weapons.lua",
          R"LUA(-- Extends @PARENT@'s rules/weapons.lua (nothing is copied: every function not redefined here
-- is the parent's). House rule: a heavy machine gun's Pen is one better.
local base = umpire.base("weapons")
local house = setmetatable({}, {__index = base})

--- Pen of a shot: the parent's, +1 for a heavy machine gun's non-HE shot.
function house.pen(profile, he_shot)
  local pen = base.pen(profile, he_shot)
  if profile.id == "hmg" and not he_shot then
    umpire.cite("HOUSE-@NAME@", "heavy machine gun: Pen +" .. (pen + 1) .. " instead of +" .. pen)
    return pen + 1
  end
  return pen
end

return house
)LUA",
          R"LUA(-- Spec tests of the house rule @NAME@ (umpire test --ruleset <this folder>).
local W = umpire.rules.weapons

test("@NAME@: the MG42 fires 5 shots (@PARENT@: 4); the rest of its profile is the LMG's", function()
  local p = W.profile("mg42")
  eq({p.shots, p.range, p.pen}, {5, 36, 0})
  eq(W.profile("lmg").shots, 4)
end)

test("@NAME@: a heavy machine gun has Pen +2", function()
  eq(W.pen(W.profile("hmg")), 2)
  ok(umpire.journal.cited("HOUSE-@NAME@"))
end)

test("@NAME@: other weapons keep their Pen", function()
  eq(W.pen(W.profile("rifle")), 0)
  eq(W.pen(W.profile("medium_at_gun")), 5)
end)
)LUA",
          R"LUA(-- An MG42 team firing at a regular squad of ten in the open at 21", @PARENT@ against @NAME@:
--   umpire odds --ruleset @PARENT@ <this file> --compare <the @NAME@ folder>
local SC, S = umpire.rules.scenario, umpire.rules.shooting
local team = SC.line("mg42", "axis", 2, nil, {type = "support_team"})
team.models[1].weapon, team.models[1].role = "mg42", "firer"
team.models[2].role = "crew"
local target = SC.line("gis", "allies", 10, "rifle", {y = 21})
local r = S.fire{shooter = team, target = target}
return {casualties = r.units.gis and r.units.gis.casualties or 0, pins = target.pins}
)LUA"}},
    };
    return t;
}

std::string fill(std::string text, const std::string& name, const std::string& parent) {
    text = std::regex_replace(text, std::regex("@NAME@"), name);
    return std::regex_replace(text, std::regex("@PARENT@"), parent);
}

// The yaml-language-server modeline pointing a YAML file written into `folder` at a schema of the
// source tree (schemas/<rel>), as a path relative to `folder` (editors and `umpire check` resolve it
// from the file; absolute if there is no relative path), or "" if this build's source tree has no
// such schema.
std::string modeline(const fs::path& folder, const std::string& rel) {
    const fs::path schema = ruleset::shared().schemas / rel;
    if (ruleset::shared().schemas.empty()) return "";
    if (!fs::is_regular_file(schema)) return "";
    // Lexical, not fs::relative: editors and the checker join the path to the file's folder
    // lexically, so a symlink on the way must not be resolved here either.
    const fs::path relative =  // empty if there is no relative path
        fs::absolute(schema).lexically_normal().lexically_relative(fs::absolute(folder).lexically_normal());
    return "# yaml-language-server: $schema=" + (relative.empty() ? schema : relative).generic_string() + "\n";
}

void write(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace

int cmd_new(const NewInputs& in) {
    if (in.kind != "house-rule") {
        std::cerr << "umpire new: unknown kind '" << in.kind << "' (known: house-rule)\n";
        return kUsage;
    }
    if (!std::regex_match(in.name, std::regex("[A-Za-z0-9_-]+"))) {
        std::cerr << "umpire new: bad name '" << in.name << "' (letters, digits, _ and - only)\n";
        return kUsage;
    }
    const auto it = templates().find(in.extends);
    if (it == templates().end()) {
        std::cerr << "umpire new house-rule: no template for --extends '" << in.extends << "' (known:";
        for (const auto& [k, _] : templates()) std::cerr << " " << k;
        std::cerr << ")\n";
        return kUsage;
    }
    const Template& t = it->second;
    const fs::path dir = fs::path(in.dir.empty() ? "rulesets" : in.dir) / in.name;
    if (fs::exists(dir)) {
        std::cerr << "umpire new: " << dir.string() << " already exists; not overwriting it\n";
        return kScriptError;
    }
    const std::string& n = in.name;
    const std::string& p = in.extends;
    std::string manifest_modeline, data_modeline;
    try {
        manifest_modeline = modeline(dir, "ruleset.schema.json");
        // The data file is a partial overlay of the parent's: the parent's schema (umpire check
        // validates it with partial = true, so the parent's required keys need not be repeated).
        data_modeline = modeline(dir / "data", p + "/" + fs::path(t.data_file).stem().string() + ".schema.json");
    } catch (const std::exception& e) {
        std::cerr << "umpire new: " << e.what() << "\n";
        return kScriptError;
    }
    const std::string manifest =
        manifest_modeline +
        "# " + fill(t.description, n, p) + "\n"
        "# Made by `umpire new house-rule " + n + " --extends " + p + "`. A data file here is deep-merged\n"
        "# over the parent's file of the same name; a module named like a parent's extends it\n"
        "# (docs/rulesets.md). Check it with `umpire check --ruleset <this folder>`.\n"
        "name: " + n + "\nversion: 0.1.0\ndescription: \"" + fill(t.description, n, p) + "\"\n"
        "extends: " + p + "\ndata:\n  - data/" + t.data_file + "\nmodules:\n  - rules/" + t.module_file +
        "\ntests:\n  - tests/house.lua\n";
    try {
        write(dir / "ruleset.yaml", manifest);
        write(dir / "data" / t.data_file, data_modeline + fill(t.data, n, p));
        write(dir / "rules" / t.module_file, fill(t.module, n, p));
        write(dir / "tests" / "house.lua", fill(t.test, n, p));
        write(dir / "odds" / "compare.lua", fill(t.compare, n, p));
    } catch (const std::exception& e) {
        std::cerr << "umpire new: " << e.what() << "\n";
        return kScriptError;
    }
    const std::string d = dir.string();
    std::cout << "Wrote " << d << "/: ruleset.yaml, data/" << t.data_file << ", rules/" << t.module_file
              << ", tests/house.lua, odds/compare.lua\n"
              << "Next:\n"
              << "  umpire test --ruleset " << d << "\n"
              << "  umpire check --ruleset " << d << "\n"
              << "  umpire odds --ruleset " << p << " " << d << "/odds/compare.lua --compare " << d << "\n";
    return kOk;
}

}  // namespace umpire::cli
