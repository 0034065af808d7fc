// Incremental reload (ruleset/LoadCache.hpp): a reload after any sequence of edits gives what a
// cold load of the edited files gives, and a broken edit leaves the last good rules loaded.
//
// The check is independent of the cache: a second host with nothing cached loads the same
// folders from scratch after every edit, and the two are compared through what rule code can see
// (every value and mark of umpire.data, the shape of umpire.rules, umpire.ruleset) and through
// the outcome of every spec file of the rulesets.
#include <catch2/catch.hpp>

#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "app/SpecRunner.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/Ruleset.hpp"
#include "tests/support/helpers.hpp"

using test_helpers::TestHost;
namespace fs = std::filesystem;

namespace {

// Everything of the loaded generation that rule code reads, as text: values and types, the
// marks of data (umpire.where), shared tables named once.
constexpr const char* kDump = R"lua(
local out, seen = {}, {}
local function dump(v, path)
  if type(v) ~= 'table' then
    out[#out + 1] = path .. ' = ' .. type(v) .. ' ' .. (type(v) == 'function' and '' or tostring(v))
    return
  end
  if seen[v] then out[#out + 1] = path .. ' = same as ' .. seen[v] return end
  seen[v] = path
  out[#out + 1] = path .. ' table at ' .. tostring(umpire.where(v))
  for k, x in pairs(v) do
    out[#out + 1] = path .. '[' .. type(k) .. ' ' .. tostring(k) .. '] at ' .. tostring(umpire.where(v, k))
    dump(x, path .. '.' .. tostring(k))
  end
end
dump(umpire.data, 'data')
dump(umpire.rules, 'rules')
dump(umpire.ruleset, 'ruleset')
return table.concat(out, '\n')
)lua";

std::string dump(umpire::LuaHost& host) {
    const int n = host.run_string(kDump, "=dump", true);
    REQUIRE(n == 1);
    std::string text = lua_tostring(host.state(), -1);
    lua_pop(host.state(), n);
    return text;
}

// The "ok"/"FAIL" lines of every spec file of the loaded rulesets.
std::string specs(umpire::LuaHost& host, const std::vector<fs::path>& dirs) {
    std::ostringstream out;
    for (const auto& dir : dirs)
        for (const auto& m : umpire::ruleset::chain(dir, umpire::ruleset::search_path(host)))
            for (const auto& file : m.tests) {
                const auto result = umpire::run_spec_file(host, file, out);
                out << file.filename().string() << ": " << result.passed << " passed, " << result.failed << " failed\n";
            }
    return out.str();
}

// What one load gave: the error, or the dump and the spec outcome.
struct Outcome {
    std::string error;
    std::string data;
    std::string spec_lines;
    std::string data_after_specs;  // spec files may change rule tables (a module's own flags)
};

Outcome outcome_of(umpire::LuaHost& host, const std::vector<fs::path>& dirs, const std::function<void()>& load) {
    Outcome o;
    try {
        load();
    } catch (const umpire::ScriptError& e) {
        o.error = e.what();
        return o;
    }
    o.data = dump(host);
    o.spec_lines = specs(host, dirs);
    o.data_after_specs = dump(host);
    return o;
}

// One random edit of one file. A breaking edit (a syntax error, an error raised while the module
// runs, a null list item) is recorded in `broken`, and undone at the start of the next step, so
// that most steps load and the failures stay one at a time.
void random_edit(std::mt19937& rng, const std::vector<fs::path>& files,
                 const std::map<fs::path, std::string>& originals, int step, std::set<fs::path>& broken) {
    const fs::path file = files[std::uniform_int_distribution<std::size_t>(0, files.size() - 1)(rng)];
    std::string text = umpire::LuaHost::read_file(file);
    const bool yaml = file.extension() == ".yaml";
    const int kind = std::uniform_int_distribution<int>(0, 19)(rng);
    if (kind < 6) {  // back to the shipped text (bytes the cache has seen before)
        text = originals.at(file);
    } else if (kind < 12) {  // a different number somewhere (validate or a spec may refuse it: both hosts must agree)
        static const std::regex kNumber(R"(\b[0-9]+\b)");
        std::vector<std::smatch> found;
        for (auto it = std::sregex_iterator(text.begin(), text.end(), kNumber); it != std::sregex_iterator(); ++it)
            found.push_back(*it);
        if (!found.empty()) {
            const auto& m = found[std::uniform_int_distribution<std::size_t>(0, found.size() - 1)(rng)];
            text = text.substr(0, m.position()) + std::to_string(std::uniform_int_distribution<int>(0, 12)(rng)) +
                   text.substr(m.position() + m.length());
        }
    } else if (kind < 17) {  // an addition that changes the bytes and should load (a comment; a new key)
        text += yaml ? "\nedit_" + std::to_string(step) + ": " + std::to_string(step) + "\n"
                     : "\n-- edit " + std::to_string(step) + "\n";
    } else {
        broken.insert(file);
        if (kind == 17) text += yaml ? "\nbroken: [1, 2\n" : "\nlocal = 1\n";
        else if (yaml) text += "\nedit_list: [1, ~]\n";
        else text = "error('edit " + std::to_string(step) + "')\n" + text;
    }
    test_helpers::write(file, text);
}

void check_random_edits(const std::vector<fs::path>& dirs, unsigned seed, int steps) {
    std::vector<fs::path> files;
    std::map<fs::path, std::string> originals;
    for (const auto& dir : dirs)
        for (const auto& sub : {"data", "rules"})
            for (const auto& e : fs::directory_iterator(dir / sub)) {
                files.push_back(e.path());
                originals[e.path()] = umpire::LuaHost::read_file(e.path());
            }
    std::sort(files.begin(), files.end());
    std::vector<std::string> names;
    for (const auto& d : dirs) names.push_back(d.string());

    TestHost warm;
    const Outcome first = outcome_of(warm.host, dirs, [&] { umpire::ruleset::load(warm.host, names); });
    REQUIRE(first.error.empty());
    std::string last_good = first.data_after_specs;

    std::mt19937 rng(seed);
    int reloads = 0, failures = 0;
    std::string last_error;
    std::set<fs::path> broken;
    for (int step = 0; step < steps; ++step) {
        for (const auto& file : broken) test_helpers::write(file, originals.at(file));
        broken.clear();
        const int edits = std::uniform_int_distribution<int>(1, 2)(rng);
        for (int e = 0; e < edits; ++e) random_edit(rng, files, originals, step, broken);
        TestHost cold;
        const Outcome expected = outcome_of(cold.host, dirs, [&] { umpire::ruleset::load(cold.host, names); });
        // The state survives reloads by design (it is the game's, not the rules'): start both from
        // the cold host's, so that spec files that read it see the same.
        const std::string state = cold.host.state_json();
        const Outcome got = outcome_of(warm.host, dirs, [&] {
            umpire::ruleset::reload(warm.host);
            warm.host.set_state_json(state);
        });
        INFO("seed " << seed << ", step " << step);
        REQUIRE(got.error == expected.error);
        if (got.error.empty()) {
            ++reloads;
            REQUIRE(got.data == expected.data);
            REQUIRE(got.spec_lines == expected.spec_lines);
            last_good = got.data_after_specs;
        } else {
            ++failures;
            last_error = got.error;
            REQUIRE(dump(warm.host) == last_good);  // transactional: the last good rules stay
        }
    }
    // The sequence exercised both paths, or it proved little.
    INFO("last error: " << last_error);
    CHECK(reloads > 0);
    CHECK(failures > 0);
}

}  // namespace

TEST_CASE("incremental reload equals a cold load after random edits (extends chain)", "[reload][incremental]") {
    const fs::path dir = test_helpers::scratch_copy("incremental-fixtures");
    for (unsigned seed : {1u, 2u, 3u}) {
        for (const auto& sub : {"base", "house"}) {  // every seed starts from the fixtures' text
            fs::remove_all(dir / sub);
            fs::copy(test_helpers::fixtures() / sub, dir / sub, fs::copy_options::recursive);
        }
        check_random_edits({dir / "base", dir / "house"}, seed, 40);
    }
}

TEST_CASE("incremental reload equals a cold load after random edits (skirmish)", "[reload][incremental]") {
    const fs::path dir = test_helpers::scratch_root() / "incremental-skirmish";
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy(fs::path(UMPIRE_SOURCE_DIR) / "rulesets/skirmish", dir / "skirmish", fs::copy_options::recursive);
    check_random_edits({dir / "skirmish"}, 7, 30);
}

TEST_CASE("a reload reuses what did not change and re-reads what did", "[reload][incremental]") {
    const fs::path dir = test_helpers::scratch_copy("incremental-reuse");
    TestHost t;
    umpire::ruleset::load(t.host, {(dir / "house").string()});
    // A module's functions see the new generation's data: the body ran again in the new env even
    // though its chunk was not compiled again.
    CHECK(t.eval("umpire.rules.machine_guns.breaks('mmg', 10)") == "true");
    test_helpers::write(dir / "house/data/weapons.yaml",
                        umpire::LuaHost::read_file(dir / "house/data/weapons.yaml") + "\nlmg: {B: 9, fp: 2, rof: [1]}\n");
    umpire::ruleset::reload(t.host);
    CHECK(t.eval("umpire.data.weapons.lmg.B") == "9");
    CHECK_THAT(t.eval("umpire.where(umpire.data.weapons.lmg, 'B')"), Catch::EndsWith("house/data/weapons.yaml:7:7"));
    // Data changed by rule code is refused and undone (host/DataGuard.hpp), and a reload gives
    // fresh tables anyway, as a cold load does.
    CHECK_THROWS_WITH(t.host.run_string("umpire.data.weapons.mmg.B = 99"), Catch::Contains("changed umpire.data.weapons.mmg.B"));
    CHECK(t.eval("umpire.data.weapons.mmg.B") == "10");
    umpire::ruleset::reload(t.host);
    CHECK(t.eval("umpire.data.weapons.mmg.B") == "10");
}
