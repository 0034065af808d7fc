// umpire new ruleset NAME [--dir DIR]: a complete new game system (manifest, a data file with its
// own JSON Schema and modeline, a rules module, spec tests with fixed dice, an odds script and a
// README) that passes `umpire check` and `umpire test` as made; docs/new-game.md grows it.
//
// umpire new house-rule NAME --extends PARENT [--dir DIR]: a ruleset folder that extends PARENT.
// For asl and bolt-action: one overridden data value, one overridden rule function (a module
// named like the parent's, extending it through umpire.base: never a copy), one spec test and one
// odds comparison script, all passing as written. For any other ruleset on the search path (a
// user's own included): an empty data overlay and a module extending the parent's, each listing
// what the parent has, and a spec test that the house rule loads over it.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <algorithm>

#include "app/Checker.hpp"
#include "cli/Common.hpp"
#include "core/LinearRegex.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/Ruleset.hpp"
#include "ruleset/SchemaValidator.hpp"
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

// The yaml-language-server modeline pointing a YAML file written into `folder` at `schema`, as a
// path relative to `folder` (editors and `umpire check` resolve it from the file; absolute if
// there is no relative path).
std::string modeline_to(const fs::path& folder, const fs::path& schema) {
    // Lexical, not fs::relative: editors and the checker join the path to the file's folder
    // lexically, so a symlink on the way must not be resolved here either.
    const fs::path relative =  // empty if there is no relative path
        fs::absolute(schema).lexically_normal().lexically_relative(fs::absolute(folder).lexically_normal());
    return "# yaml-language-server: $schema=" + (relative.empty() ? schema : relative).generic_string() + "\n";
}

// The same for a shipped schema (schemas/<rel> of this install or checkout, ruleset/Shared.hpp),
// or "" if there is no such schema.
std::string modeline(const fs::path& folder, const std::string& rel) {
    if (ruleset::shared().schemas.empty() || !fs::is_regular_file(ruleset::shared().schemas / rel)) return "";
    return modeline_to(folder, ruleset::shared().schemas / rel);
}

void write(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + file.string());
}

// ---- umpire new ruleset ---------------------------------------------------------------------
// A small game to grow from: units with a hit skill and a save, and one attack (hit, then save).
// Every file is what a ruleset author writes by hand; docs/new-game.md turns it into a 40k-style
// hit / wound / save / damage sequence.

const char* kUnitsSchema = R"JSON({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "@NAME@: data/units.yaml",
  "type": "object",
  "required": ["units"],
  "additionalProperties": false,
  "properties": {
    "units": {
      "type": "object",
      "propertyNames": {"pattern": "^[a-z0-9_]+$"},
      "additionalProperties": {"$ref": "#/definitions/unit"}
    }
  },
  "definitions": {
    "unit": {
      "type": "object",
      "required": ["name", "skill", "save"],
      "additionalProperties": false,
      "properties": {
        "name": {"type": "string"},
        "skill": {"type": "integer", "minimum": 2, "maximum": 6, "description": "hits on a d6 roll of this or more"},
        "save": {"type": "integer", "minimum": 2, "maximum": 7, "description": "a hit is saved on a d6 roll of this or more (7: no save)"}
      }
    }
  }
}
)JSON";

const char* kUnits = R"YAML(# The units of @NAME@. skill: a hit on a d6 roll of this or more (rule 1.1); save: a hit is
# saved on a d6 roll of this or more (rule 1.2; 7 means no save). Checked against
# ../schemas/units.schema.json by your editor and by `umpire check`.
units:
  trooper: {name: Trooper, skill: 4, save: 5}
  veteran: {name: Veteran, skill: 3, save: 4}
)YAML";

const char* kAttack = R"LUA(-- @NAME@ rule 1: the attack. 1.1 the attacker rolls a d6 to hit, needing its skill or more;
-- 1.2 the target rolls a d6 to save each hit, needing its save or more (7: no save).
-- Made by `umpire new ruleset`: change it into your game's rules, and tests/attack.lua with it.
-- Other modules and scripts reach it as umpire.rules.attack, so a house rule can override it.
local attack = {}

--- The unit `id` of data/units.yaml (an error names the unknown id).
function attack.unit(id)
  local u = umpire.data.units.units[id]
  if not u then error("no unit '" .. tostring(id) .. "' in data/units.yaml", 2) end
  return u
end

--- 1.1: does a d6 roll hit? (a house rule can change this alone)
function attack.hits(attacker, roll)
  return roll >= attacker.skill
end

--- One attack by unit `attacker_id` on unit `target_id`: {hit=, saved=, wounded=}.
function attack.resolve(attacker_id, target_id)
  local a, t = attack.unit(attacker_id), attack.unit(target_id)
  local roll = umpire.dice.d6()
  local hit = umpire.rules.attack.hits(a, roll)
  umpire.cite("1.1", ("%s rolls %d to hit, needing %d+: %s"):format(a.name, roll, a.skill, hit and "hit" or "miss"))
  if not hit then return {hit = false, saved = false, wounded = false} end
  local save = umpire.dice.d6()
  local saved = save >= t.save
  umpire.cite("1.2", ("%s rolls %d to save, needing %d+: %s"):format(t.name, save, t.save, saved and "saved" or "wounded"))
  return {hit = true, saved = saved, wounded = not saved}
end

--- Runs once the data is loaded: a problem the schema cannot see, at its file:line:col.
function attack.validate(data)
  if next(data.units.units) == nil then
    error(umpire.where(data.units, "units") .. ": data/units.yaml has no units", 0)
  end
end

return attack
)LUA";

const char* kAttackTest = R"LUA(-- Spec tests of @NAME@, with fixed dice: umpire test --ruleset <this folder>
-- umpire.dice.fix{...} sets the next dice rolled, in order, for this test only.
local A = umpire.rules.attack

test("1.1: a trooper hits a veteran on a 4; 1.2: a save roll of 3 fails (4+)", function()
  umpire.dice.fix{4, 3}
  eq(A.resolve("trooper", "veteran"), {hit = true, saved = false, wounded = true})
  ok(umpire.journal.cited("1.1") and umpire.journal.cited("1.2"))
end)

test("1.1: a miss rolls no save", function()
  umpire.dice.fix{3}
  eq(A.resolve("trooper", "veteran"), {hit = false, saved = false, wounded = false})
end)

test("1.2: a trooper saves on a 5", function()
  umpire.dice.fix{3, 5}
  eq(A.resolve("veteran", "trooper").saved, true)
end)

test("an unknown unit is an error naming it", function()
  raises(function() A.resolve("ogre", "trooper") end, "no unit 'ogre'")
end)
)LUA";

const char* kAttackOdds = R"LUA(-- The odds of one attack of a trooper on a veteran (exact: every die is a branch):
--   umpire odds --ruleset <this folder> <this folder>/odds/attack.lua
-- and against a house rule that extends @NAME@, outcome by outcome:
--   umpire odds --ruleset <this folder> <this folder>/odds/attack.lua --compare <its folder>
local r = umpire.rules.attack.resolve("trooper", "veteran")
return {hit = r.hit, wounded = r.wounded}
)LUA";

const char* kReadme = R"MD(# @NAME@

A game system for [Umpire](https://example.invalid/umpire), made by `umpire new ruleset @NAME@`.

| file | what |
|---|---|
| `ruleset.yaml` | the manifest: name, data files, rule modules, tests |
| `data/units.yaml` | the units' numbers (`umpire.data.units`) |
| `schemas/units.schema.json` | what `data/units.yaml` may hold (your editor and `umpire check` use it; `umpire new house-rule` makes its overlay for a house rule's file) |
| `rules/attack.lua` | rule 1, the attack (`umpire.rules.attack`) |
| `tests/attack.lua` | spec tests with fixed dice |
| `odds/attack.lua` | an odds script: the exact chance of each outcome |

```sh
umpire check --ruleset .                     # schemas, loading, spec tests
umpire test --ruleset .                      # N passed, 0 failed
umpire odds --ruleset . odds/attack.lua      # hit 1/2, wounded 1/4
umpire new house-rule my-house --extends @NAME@ --ruleset .. --dir ..
```
)MD";

std::string overlay_text(const std::string& schema_text) {
    nlohmann::json overlay = schema::overlay_schema(nlohmann::json::parse(schema_text));
    overlay["title"] = "Overlay of " + overlay.value("title", std::string("a data schema")) +
                       " (a house rule's data file: only what changes; no key is required)";
    return overlay.dump(2) + "\n";
}

int new_ruleset(const NewInputs& in, const fs::path& dir) {
    const std::string& n = in.name;
    const std::string manifest =
        modeline(dir, "ruleset.schema.json") +
        "# " + n + ": a game system made by `umpire new ruleset " + n + "` (docs/new-game.md grows it).\n"
        "# Check it with `umpire check --ruleset <this folder>`; the format is in docs/rulesets.md.\n"
        "name: " + n + "\nversion: 0.1.0\ndescription: \"" + n + ": units with a hit skill and a save; one attack\"\n"
        "turn_sequence: [move, shoot]\n"
        "data:\n  - data/units.yaml\nmodules:\n  - rules/attack.lua\ntests:\n  - tests/attack.lua\n";
    const std::string schema_text = fill(kUnitsSchema, n, "");
    write(dir / "ruleset.yaml", manifest);
    write(dir / "schemas" / "units.schema.json", schema_text);
    write(dir / "data" / "units.yaml",
          "# yaml-language-server: $schema=../schemas/units.schema.json\n" + fill(kUnits, n, ""));
    write(dir / "rules" / "attack.lua", fill(kAttack, n, ""));
    write(dir / "tests" / "attack.lua", fill(kAttackTest, n, ""));
    write(dir / "odds" / "attack.lua", fill(kAttackOdds, n, ""));
    write(dir / "README.md", fill(kReadme, n, ""));
    const std::string d = dir.string();
    std::cout << "Wrote " << d << "/: ruleset.yaml, data/units.yaml, schemas/units.schema.json, "
              << "rules/attack.lua, tests/attack.lua, odds/attack.lua, README.md\n"
              << "Next:\n"
              << "  umpire check --ruleset " << d << "\n"
              << "  umpire test --ruleset " << d << "\n"
              << "  umpire odds --ruleset " << d << " " << d << "/odds/attack.lua\n"
              << "  umpire new house-rule " << n << "-house --extends " << n << " --ruleset "
              << dir.parent_path().string() << " --dir " << dir.parent_path().string() << "\n";
    return kOk;
}

// A house rule over asl or bolt-action from its template (templates() above).
int new_template_house_rule(const NewInputs& in, const fs::path& dir, const Template& t) {
    const std::string& n = in.name;
    const std::string& p = in.extends;
    const std::string manifest_modeline = modeline(dir, "ruleset.schema.json");
    // The data file is a partial overlay of the parent's: it names the overlay of the parent's
    // schema (no required keys), which is what `umpire check` applies to it too.
    const std::string data_modeline =
        modeline(dir / "data", p + "/" + fs::path(t.data_file).stem().string() + ".overlay.schema.json");
    const std::string manifest =
        manifest_modeline +
        "# " + fill(t.description, n, p) + "\n"
        "# Made by `umpire new house-rule " + n + " --extends " + p + "`. A data file here is deep-merged\n"
        "# over the parent's file of the same name; a module named like a parent's extends it\n"
        "# (docs/rulesets.md). Check it with `umpire check --ruleset <this folder>`.\n"
        "name: " + n + "\nversion: 0.1.0\ndescription: \"" + fill(t.description, n, p) + "\"\n"
        "extends: " + p + "\ndata:\n  - data/" + t.data_file + "\nmodules:\n  - rules/" + t.module_file +
        "\ntests:\n  - tests/house.lua\n";
    write(dir / "ruleset.yaml", manifest);
    write(dir / "data" / t.data_file, data_modeline + fill(t.data, n, p));
    write(dir / "rules" / t.module_file, fill(t.module, n, p));
    write(dir / "tests" / "house.lua", fill(t.test, n, p));
    write(dir / "odds" / "compare.lua", fill(t.compare, n, p));
    const std::string d = dir.string();
    std::cout << "Wrote " << d << "/: ruleset.yaml, data/" << t.data_file << ", rules/" << t.module_file
              << ", tests/house.lua, odds/compare.lua\n"
              << "Next:\n"
              << "  umpire test --ruleset " << d << "\n"
              << "  umpire check --ruleset " << d << "\n"
              << "  umpire odds --ruleset " << p << " " << d << "/odds/compare.lua --compare " << d << "\n";
    return kOk;
}

// ---- umpire new house-rule ------------------------------------------------------------------

// The modeline for a house rule's overlay of the parent's data file `parent_file`: the overlay
// beside the parent's schema if there is one (every shipped schema and `new ruleset`'s have
// one), else an overlay made now from the parent's schema into the house rule's schemas/.
std::string overlay_modeline(const fs::path& house, const fs::path& parent_file,
                             const std::vector<ruleset::Manifest>& chain) {
    std::vector<fs::path> dirs;
    std::vector<std::string> names;
    for (const auto& m : chain) {
        dirs.push_back(m.dir);
        names.push_back(m.name);
    }
    const std::string kind = parent_file.stem().string();
    const fs::path schema = schema_for(parent_file, kind, dirs, names);
    if (schema.empty() || !fs::is_regular_file(schema)) return "";
    const std::string file = schema.filename().string();
    const std::string suffix = ".schema.json", overlay_suffix = ".overlay.schema.json";
    if (file.size() > overlay_suffix.size() &&
        file.compare(file.size() - overlay_suffix.size(), overlay_suffix.size(), overlay_suffix) == 0)
        return modeline_to(house / "data", schema);  // the parent's own file is already an overlay
    const fs::path beside = schema.parent_path() / (file.substr(0, file.size() - suffix.size()) + overlay_suffix);
    if (fs::is_regular_file(beside)) return modeline_to(house / "data", beside);
    const fs::path own = house / "schemas" / (kind + overlay_suffix);
    write(own, overlay_text(LuaHost::read_file(schema)));
    return "# yaml-language-server: $schema=../schemas/" + own.filename().string() + "\n";
}

// The names of the functions a Lua module defines as `function m.name(` / `m.name = function(`,
// read off its text (to list them in the house rule's module; nothing is run).
std::vector<std::string> functions_of(const fs::path& module) {
    static const std::regex kFunction(R"((?:^|\n)\s*function\s+[A-Za-z_]\w*[.:]([A-Za-z_]\w*)\s*\(|(?:^|\n)\s*[A-Za-z_]\w*\.([A-Za-z_]\w*)\s*=\s*function\s*\()",
                                      kLinearRegex);
    const std::string text = LuaHost::read_file(module);
    std::vector<std::string> out;
    for (std::sregex_iterator it(text.begin(), text.end(), kFunction), end; it != end; ++it) {
        const std::string name = (*it)[1].matched ? (*it)[1].str() : (*it)[2].str();
        if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
    }
    return out;
}

int new_generic_house_rule(const Common& common, const NewInputs& in, const fs::path& dir) {
    const std::string& n = in.name;
    LuaHost probe(host_options(common));
    const auto search = ruleset::search_path(probe);
    const fs::path parent_dir = ruleset::find(in.extends, search);
    const auto chain = ruleset::chain(parent_dir, search);
    // `extends:` takes the parent's name, looked up beside the house rule and on the search path
    // wherever it is loaded from; a folder given as --extends (./games/grimdark) would only hold
    // from the folder it was typed in.
    const std::string p = chain.back().name;
    if (p != in.extends && fs::path(in.extends).filename() != p)
        std::cerr << "umpire new: note: " << in.extends << " is the ruleset named '" << p
                  << "'; the house rule extends it by that name\n";
    // The leaf-most data file and module of the parent's chain: the ones a house rule most likely
    // changes (a parent that is itself a house rule points at what it overrides).
    fs::path data_file, module_file;
    for (auto m = chain.rbegin(); m != chain.rend(); ++m) {
        if (data_file.empty() && !m->data.empty()) data_file = m->data.front();
        if (module_file.empty() && !m->modules.empty()) module_file = m->modules.front();
    }
    std::vector<std::string> files;
    std::string manifest_lists;
    if (!data_file.empty()) {
        const std::string base = data_file.filename().string();
        std::string reference;
        std::istringstream parent_text(LuaHost::read_file(data_file));
        std::string line;
        for (int i = 0; i < 20 && std::getline(parent_text, line);) {
            if (line.rfind("# yaml-language-server:", 0) == 0) continue;
            reference += "#   " + line + "\n";
            ++i;
        }
        write(dir / "data" / base,
              overlay_modeline(dir, data_file, chain) +
              "# Merged over " + p + "'s data/" + base + " key by key: write here only the values that\n"
              "# change (a map merges into the parent's map; a list or a value replaces it).\n"
              "# The start of " + p + "'s file, for reference:\n" + reference +
              "{}  # nothing changed yet: replace this line with your values\n");
        files.push_back("data/" + base);
        manifest_lists += "data:\n  - data/" + base + "\n";
    }
    std::string test_module_check;
    if (!module_file.empty()) {
        const std::string base = module_file.filename().string();
        const std::string mod = module_file.stem().string();
        const auto functions = functions_of(module_file);
        std::string listed;
        for (const auto& f : functions) listed += "--   " + mod + "." + f + "\n";
        const std::string example = functions.empty() ? "name" : functions.front();
        write(dir / "rules" / base,
              "-- Extends " + p + "'s rules/" + base + " (nothing is copied: every function not\n"
              "-- redefined here is the parent's; other modules reach this one as umpire.rules." + mod + ",\n"
              "-- so they see what you override). " + p + "'s module defines:\n" + listed +
              "local base = umpire.base(\"" + mod + "\")\n"
              "local house = setmetatable({}, {__index = base})\n\n"
              "-- An override calls the original through `base` and changes what it must, e.g.:\n"
              "-- function house." + example + "(...)\n"
              "--   umpire.cite(\"HOUSE-" + n + "\", \"why the house rule differs\")\n"
              "--   return base." + example + "(...)\n"
              "-- end\n\n"
              "return house\n");
        files.push_back("rules/" + base);
        manifest_lists += "modules:\n  - rules/" + base + "\n";
        test_module_check = "  ok(umpire.rules." + mod + ", \"" + p + "'s rules/" + base + " is reachable\")\n";
    }
    write(dir / "tests" / "house.lua",
          "-- Spec tests of the house rule " + n + " (umpire test --ruleset <this folder>). Add one per\n"
          "-- change, with fixed dice: umpire.dice.fix{4, 3} sets the next dice rolled.\n"
          "test(\"" + n + " loads over " + p + "\", function()\n"
          "  eq(umpire.ruleset.name, \"" + n + "\")\n" + test_module_check + "end)\n");
    files.push_back("tests/house.lua");
    write(dir / "ruleset.yaml",
          modeline(dir, "ruleset.schema.json") +
          "# A house rule over " + p + ", made by `umpire new house-rule " + n + " --extends " + p + "`. A data\n"
          "# file here is deep-merged over the parent's file of the same name; a module named like a\n"
          "# parent's extends it (docs/rulesets.md). Check it with `umpire check --ruleset <this folder>`.\n"
          "name: " + n + "\nversion: 0.1.0\ndescription: \"House rule over " + p + "\"\nextends: " + p + "\n" +
          manifest_lists + "tests:\n  - tests/house.lua\n");
    const std::string d = dir.string();
    std::cout << "Wrote " << d << "/: ruleset.yaml";
    for (const auto& f : files) std::cout << ", " << f;
    std::cout << "\nNext:\n"
              << "  umpire test --ruleset " << d << "\n"
              << "  umpire check --ruleset " << d << "\n";
    // The parent's odds scripts (as `new ruleset` writes them) compare the two as they are.
    if (fs::is_directory(parent_dir / "odds"))
        for (const auto& e : fs::directory_iterator(parent_dir / "odds"))
            if (e.path().extension() == ".lua")
                std::cout << "  umpire odds --ruleset " << LuaHost::display_path(parent_dir) << " "
                          << LuaHost::display_path(e.path()) << " --compare " << d << "\n";
    return kOk;
}

}  // namespace

int cmd_new(const Common& common, const NewInputs& in) {
    if (in.kind != "house-rule" && in.kind != "ruleset") {
        std::cerr << "umpire new: unknown kind '" << in.kind << "' (known: ruleset, house-rule)\n";
        return kUsage;
    }
    // At most 64 characters: a name of 300 made a folder name the file system refuses, and the
    // exception from the check below ended the process (std::terminate, status 134).
    if (!std::regex_match(in.name, std::regex("[A-Za-z0-9_-]{1,64}"))) {
        std::cerr << "umpire new: bad name '" << in.name << "' (letters, digits, _ and - only, at most 64)\n";
        return kUsage;
    }
    if (in.kind == "house-rule" && in.extends.empty()) {
        std::cerr << "umpire new house-rule: say which ruleset it changes: --extends NAME\n";
        return kUsage;
    }
    if (in.kind == "ruleset" && !in.extends.empty()) {
        std::cerr << "umpire new ruleset: a new game extends nothing (for a ruleset over another: "
                     "umpire new house-rule " << in.name << " --extends " << in.extends << ")\n";
        return kUsage;
    }
    const fs::path dir = fs::path(in.dir.empty() ? "rulesets" : in.dir) / in.name;
    try {
        if (fs::exists(dir)) {  // inside the try: a --dir the file system refuses throws
            std::cerr << "umpire new: " << dir.string() << " already exists; not overwriting it\n";
            return kScriptError;
        }
        if (in.kind == "ruleset") return new_ruleset(in, dir);
        const auto it = templates().find(in.extends);
        if (it == templates().end()) return new_generic_house_rule(common, in, dir);
        return new_template_house_rule(in, dir, it->second);
    } catch (const std::exception& e) {
        std::cerr << "umpire new: " << e.what() << "\n";
        return kScriptError;
    }
}

}  // namespace umpire::cli
