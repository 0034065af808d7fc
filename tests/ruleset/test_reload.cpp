// Incremental reload (ruleset/LoadCache.hpp): a reload after any sequence of edits gives what a
// cold load of the edited files gives, and a broken edit leaves the last good rules loaded.
//
// The check is independent of the cache: a second host with nothing cached loads the same
// folders from scratch after every edit, and the two are compared through what rule code can see
// (every value and mark of umpire.data, the shape of umpire.rules, umpire.ruleset) and through
// the outcome of every spec file of the rulesets.
#include <catch2/catch.hpp>

#include <functional>
#include <initializer_list>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>

#include "app/SpecRunner.hpp"
#include "bindings/GameLog.hpp"
#include "ruleset/FileStamp.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/LoadCache.hpp"
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

// What a host with nothing cached loads from `dir`: the dump an incremental reload must equal.
std::string cold_dump(const fs::path& dir) {
    TestHost fresh;
    umpire::ruleset::load(fresh.host, {dir.string()});
    return dump(fresh.host);
}

// The "ok"/"FAIL" lines of every spec file of the loaded rulesets.
std::string specs(umpire::LuaHost& host, const std::vector<fs::path>& dirs) {
    std::ostringstream out;
    for (const auto& dir : dirs)
        for (const auto& m : umpire::ruleset::chain(dir, umpire::ruleset::search_path(host)))
            for (const auto& file : m.tests) {
                const auto result = umpire::run_spec_file(host, file, {}, out);
                out << fs::path(file).filename().string() << ": " << result.passed << " passed, " << result.failed << " failed\n";
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

namespace {

using umpire::ruleset::LoadCache;

LoadCache::Counts counts_of(umpire::LuaHost& host) { return host.extension<LoadCache>().counts(); }

// What one reload did: files read, YAML files parsed, modules compiled.
LoadCache::Counts reload_counting(umpire::LuaHost& host) {
    const LoadCache::Counts before = counts_of(host);
    umpire::ruleset::reload(host);
    const LoadCache::Counts after = counts_of(host);
    return {after.reads - before.reads, after.parses - before.parses, after.compiles - before.compiles};
}

// Sets the file's mtime back to `mtime` (as cp -p or a tool restoring times would); its ctime
// becomes the present, which no user can set.
void set_mtime(const fs::path& file, const timespec& mtime) {
    const timespec times[2] = {mtime, mtime};
    REQUIRE(::utimensat(AT_FDCWD, file.c_str(), times, 0) == 0);
}

timespec mtime_of(const fs::path& file) {
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    return st.st_mtim;
}

}  // namespace

TEST_CASE("a stamp is trusted only once the file is older than the margin", "[reload][incremental]") {
    using umpire::ruleset::FileStamp;
    using umpire::ruleset::settled;
    const std::int64_t now = 1'000'000'000'000'000'000;  // an instant, in ns
    const std::int64_t second = 1'000'000'000;
    FileStamp s;
    s.mtime_ns = s.ctime_ns = now - 10 * second;
    CHECK(settled(s, now));
    s.ctime_ns = now - 2 * second;  // a write 2 s ago: same-size rewrites in the same tick are possible
    CHECK_FALSE(settled(s, now));
    CHECK(settled(s, now, std::chrono::seconds(1)));
    s.ctime_ns = now - 10 * second;
    s.mtime_ns = now + 3600 * second;  // touch -d tomorrow: never trusted
    CHECK_FALSE(settled(s, now));
    s.mtime_ns = now - 10 * second;
    CHECK_FALSE(settled(s, now - 10 * second, std::chrono::nanoseconds(0)));  // equal is not older
}

TEST_CASE("a reload reads no unchanged file, and a touched one without parsing it", "[reload][incremental]") {
    const fs::path dir = test_helpers::scratch_copy("incremental-stamps");
    TestHost t;
    // The files were copied a moment ago: with the usual margin their stamps are not trusted yet,
    // so every file is read and compared (and none parsed or compiled again).
    umpire::ruleset::load(t.host, {(dir / "house").string()});
    const LoadCache::Counts fresh = reload_counting(t.host);
    CHECK(fresh.reads == 6);  // two manifests, two data files, two modules
    CHECK(fresh.parses == 0);
    CHECK(fresh.compiles == 0);

    // Margin 0: a stamp is trusted as soon as the read is later than the file's times.
    t.host.extension<LoadCache>().settle_margin = std::chrono::nanoseconds(0);
    umpire::ruleset::reload(t.host);  // records stamps that are trusted from now on
    const LoadCache::Counts unchanged = reload_counting(t.host);
    CHECK(unchanged.reads == 0);
    CHECK(unchanged.parses == 0);
    CHECK(t.eval("umpire.data.weapons.mmg.B") == "10");

    // touch: a new mtime and ctime, the same bytes: read and compared, not parsed.
    const fs::path weapons = dir / "house/data/weapons.yaml";
    REQUIRE(::utimensat(AT_FDCWD, weapons.c_str(), nullptr, 0) == 0);
    const LoadCache::Counts touched = reload_counting(t.host);
    CHECK(touched.reads == 1);
    CHECK(touched.parses == 0);
    CHECK(t.eval("umpire.data.weapons.mmg.B") == "10");

    // A same-size edit with the old mtime put back: the ctime still changed.
    const timespec old_mtime = mtime_of(weapons);
    const std::string text = umpire::LuaHost::read_file(weapons);
    std::string edited = text;
    edited.replace(edited.find("B: 10"), 5, "B: 11");
    REQUIRE(edited.size() == text.size());
    test_helpers::write(weapons, edited);
    set_mtime(weapons, old_mtime);
    const LoadCache::Counts same_size = reload_counting(t.host);
    CHECK(same_size.reads >= 1);
    CHECK(same_size.parses == 1);
    CHECK(t.eval("umpire.data.weapons.mmg.B") == "11");
}

TEST_CASE("a same-size rewrite right after a load is seen however coarse the clock", "[reload][incremental]") {
    // With the usual margin: the edit below may land in the same clock tick as the read before it
    // (same size, same inode, the old mtime put back, and on a coarse clock the same ctime), so
    // the stamp alone cannot tell. The file was written less than the margin before that read, so
    // its stamp was not trusted and the bytes are compared.
    const fs::path dir = test_helpers::scratch_copy("incremental-racy");
    TestHost t;
    const fs::path rules = dir / "house/rules/machine_guns.lua";
    const fs::path weapons = dir / "house/data/weapons.yaml";
    umpire::ruleset::load(t.host, {(dir / "house").string()});
    for (int value = 11; value <= 19; ++value) {
        const timespec old_mtime = mtime_of(weapons);
        std::string text = umpire::LuaHost::read_file(weapons);
        const std::size_t at = text.find("B: ") + 3;
        text.replace(at, 2, std::to_string(value));
        test_helpers::write(weapons, text);
        set_mtime(weapons, old_mtime);
        umpire::ruleset::reload(t.host);
        CHECK(t.eval("umpire.data.weapons.mmg.B") == std::to_string(value));
    }
    // And a module: an edit of the same size that changes what it does.
    const std::string code = umpire::LuaHost::read_file(rules);
    const std::size_t at = code.rfind("return M");
    REQUIRE(at != std::string::npos);
    umpire::ruleset::reload(t.host);
    const timespec old_mtime = mtime_of(rules);
    test_helpers::write(rules, code.substr(0, at) + "error'x'" + code.substr(at + 8));
    set_mtime(rules, old_mtime);
    CHECK_THROWS_WITH(umpire::ruleset::reload(t.host), Catch::Contains("machine_guns.lua"));
}

TEST_CASE("a file or folder swapped for a symlink out of the ruleset after a load is refused", "[reload][incremental]") {
    const fs::path dir = test_helpers::scratch_copy("incremental-symlink");
    const fs::path outside = dir / "outside";
    fs::create_directories(outside);
    const fs::path house = dir / "house";
    const fs::path weapons = house / "data/weapons.yaml";
    fs::copy_file(weapons, outside / "weapons.yaml");  // the same bytes: only the path differs
    const fs::path rules = house / "rules/machine_guns.lua";
    fs::copy_file(rules, outside / "machine_guns.lua");
    TestHost t;
    umpire::ruleset::load(t.host, {house.string()});
    // Every stamp trusted at once: the worst case for a swap.
    t.host.extension<LoadCache>().settle_margin = std::chrono::nanoseconds(0);
    umpire::ruleset::reload(t.host);

    SECTION("the data file") {
        fs::remove(weapons);
        fs::create_symlink(outside / "weapons.yaml", weapons);
    }
    SECTION("the data folder") {
        fs::rename(house / "data", house / "data.old");
        fs::create_directory_symlink(outside, house / "data");
    }
    SECTION("a folder above the file, with a relative link") {
        fs::rename(house / "data", house / "data.old");
        fs::create_directory_symlink("../outside", house / "data");
    }
    // The files of a folder are looked up relative to the folder as opened by this load (Resolver
    // in ruleset/Ruleset.cpp): a module swapped for a link, and a folder swapped for another real
    // folder whose file is a link, are seen as a path walk sees them.
    SECTION("a rules module") {
        fs::remove(rules);
        fs::create_symlink(outside / "machine_guns.lua", rules);
    }
    SECTION("the rules folder, for a real folder holding a link out") {
        fs::rename(house / "rules", house / "rules.old");
        fs::create_directories(house / "rules");
        fs::create_symlink(outside / "machine_guns.lua", rules);
    }
    SECTION("the data folder, for a real folder holding a link out") {
        fs::rename(house / "data", house / "data.old");
        fs::create_directories(house / "data");
        fs::create_symlink(outside / "weapons.yaml", weapons);
    }
    CHECK_THROWS_WITH(umpire::ruleset::reload(t.host), Catch::Contains("resolves outside the ruleset folder"));
    CHECK(t.eval("umpire.data.weapons.mmg.B") == "10");  // the last good rules stay
}

// The check (ruleset/Ruleset.cpp, resolve_file) and the read are two steps on a path, so a file
// or a folder swapped for a symlink out of the ruleset between them (while `watch` reloads) was
// followed, and a file outside read as the rules' own. The read now asks the descriptor it opened
// where it leads and refuses anything but the file checked. The swap is made between the two
// steps here by giving the cache's read what the check found before the swap.
TEST_CASE("a file swapped out of the ruleset between the check and the read is refused", "[reload][incremental]") {
    const fs::path dir = test_helpers::scratch_copy("swapped-while-read");
    const fs::path outside = dir / "outside";
    fs::create_directories(outside);
    const fs::path house = dir / "house";
    const fs::path weapons = house / "data/weapons.yaml";
    const fs::path rules = house / "rules/machine_guns.lua";
    test_helpers::write(outside / "weapons.yaml", "mmg: {B: 666}\n");
    test_helpers::write(outside / "machine_guns.lua", "return {outside = true}\n");
    const std::string checked_data = fs::canonical(weapons).native();
    const std::string checked_module = fs::canonical(rules).native();
    TestHost t;
    auto& cache = t.host.extension<LoadCache>();
    lua_State* L = t.host.state();
    const auto read_data = [&] { cache.data(weapons.native(), "house/data/weapons.yaml", L, std::nullopt, checked_data); };
    const auto read_module = [&] {
        lua_newtable(L);  // the env
        try {
            cache.push_chunk(t.host, rules.native(), "house/rules/machine_guns.lua", -1, std::nullopt, checked_module);
        } catch (...) {
            lua_settop(L, 0);
            throw;
        }
        lua_settop(L, 0);
    };
    // The error of f (empty if none): a composed Catch matcher made in a helper keeps pointers
    // to its parts, which would be gone.
    const auto error_of = [](const std::function<void()>& f) {
        try {
            f();
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    const auto swapped = [&](const std::function<void()>& read, const std::string& to) {
        const std::string error = error_of(read);
        INFO(error);
        CHECK(error.find("changed while the rules were read: it now leads to") != std::string::npos);
        CHECK(error.find(to) != std::string::npos);
        CHECK(error.find("not the file checked inside the ruleset folder") != std::string::npos);
    };
    SECTION("the data file") {
        fs::remove(weapons);
        fs::create_symlink(outside / "weapons.yaml", weapons);
        swapped(read_data, "outside/weapons.yaml");
    }
    SECTION("the data folder") {
        fs::rename(house / "data", house / "data.old");
        fs::create_directory_symlink(outside, house / "data");
        swapped(read_data, "outside/weapons.yaml");
    }
    SECTION("a rules module") {
        fs::remove(rules);
        fs::create_symlink(outside / "machine_guns.lua", rules);
        swapped(read_module, "outside/machine_guns.lua");
    }
    SECTION("the rules folder, for a real folder holding a link out") {
        fs::rename(house / "rules", house / "rules.old");
        fs::create_directories(house / "rules");
        fs::create_symlink(outside / "machine_guns.lua", rules);
        swapped(read_module, "outside/machine_guns.lua");
    }
    SECTION("a FIFO in the data file's place (it blocked the read for ever)") {
        fs::remove(weapons);
        REQUIRE(::mkfifo(weapons.c_str(), 0600) == 0);
        CHECK_THROWS_WITH(read_data(), Catch::Contains("house/data/weapons.yaml: changed while the rules were read: it is no longer a regular file"));
    }
    SECTION("an editor's save (a new file renamed over the old) is the file checked, and is read") {
        test_helpers::write(house / "data/.weapons.yaml.tmp", "mmg: {B: 12}\n");
        fs::rename(house / "data/.weapons.yaml.tmp", weapons);
        CHECK_NOTHROW(read_data());
        CHECK_NOTHROW(read_module());
    }
}

TEST_CASE("a symlink that stays inside the ruleset folder still loads after a swap", "[reload][incremental]") {
    const fs::path dir = test_helpers::scratch_copy("incremental-symlink-inside");
    const fs::path house = dir / "house";
    const fs::path weapons = house / "data/weapons.yaml";
    TestHost t;
    umpire::ruleset::load(t.host, {house.string()});
    t.host.extension<LoadCache>().settle_margin = std::chrono::nanoseconds(0);
    umpire::ruleset::reload(t.host);
    fs::create_directories(house / "extra");
    std::string text = umpire::LuaHost::read_file(weapons);
    text.replace(text.find("B: 10"), 5, "B: 12");
    test_helpers::write(house / "extra/weapons.yaml", text);
    fs::remove(weapons);
    fs::create_symlink("../extra/weapons.yaml", weapons);
    umpire::ruleset::reload(t.host);
    CHECK(t.eval("umpire.data.weapons.mmg.B") == "12");
}

namespace {

// A registry reference to what the committed env holds at `path` (env[path[0]][path[1]]...), so
// that what a generation sees can be compared with what the next one sees after a reload.
int ref_in_committed_env(umpire::LuaHost& host, std::initializer_list<const char*> path) {
    lua_State* L = host.state();
    host.push_env();
    for (const char* field : path) {
        lua_getfield(L, -1, field);
        lua_remove(L, -2);
    }
    return luaL_ref(L, LUA_REGISTRYINDEX);
}

// Whether two registry references hold the same Lua value (raw equality: the same table).
bool same_referent(lua_State* L, int a, int b) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, a);
    lua_rawgeti(L, LUA_REGISTRYINDEX, b);
    const bool equal = lua_rawequal(L, -1, -2) != 0;
    lua_pop(L, 2);
    return equal;
}

}  // namespace

// The library views of an env (string, table, math, bit, coroutine) are made once per state and
// shared by every generation (host/Sandbox.cpp, push_library_views): the same tables after a
// reload, and still read-only to the rules of each generation.
TEST_CASE("a reload's env takes the state's library views, which stay read-only", "[reload]") {
    TestHost t;
    umpire::ruleset::load(t.host, {(test_helpers::fixtures() / "house").string()});
    lua_State* L = t.host.state();
    const int string_before = ref_in_committed_env(t.host, {"string"});
    const int math_before = ref_in_committed_env(t.host, {"math"});
    umpire::ruleset::reload(t.host);
    const int string_after = ref_in_committed_env(t.host, {"string"});
    const int math_after = ref_in_committed_env(t.host, {"math"});
    CHECK(same_referent(L, string_before, string_after));
    CHECK(same_referent(L, math_before, math_after));
    for (const int ref : {string_before, math_before, string_after, math_after}) luaL_unref(L, LUA_REGISTRYINDEX, ref);
    CHECK_THROWS_WITH(t.host.run_string("string.upper = nil"), Catch::Contains("string is read-only"));
    CHECK_THROWS_WITH(t.host.run_string("math.floor = nil"), Catch::Contains("math is read-only"));
    CHECK(t.eval("string.upper('a') .. math.floor(2.5)") == "A2");
    CHECK(t.eval("string.dump == nil and table.foreach == nil") == "true");  // kRemoved, in the shared views too
}

// umpire.dice, hex, table and bus are opened once per state and shared by every generation
// (host/LuaHost.cpp, push_new_env): the same read-only views after a reload, still read-only and
// still working; umpire.hooks and umpire.journal stay each generation's own.
TEST_CASE("a reload's umpire takes the state's dice, hex, table and bus views, which stay read-only", "[reload]") {
    TestHost t;
    umpire::ruleset::load(t.host, {(test_helpers::fixtures() / "house").string()});
    lua_State* L = t.host.state();
    const auto module_of_committed_env = [&](const char* name) { return ref_in_committed_env(t.host, {"umpire", name}); };
    const char* const kShared[] = {"dice", "hex", "table", "bus"};
    std::vector<int> before;
    for (const char* name : kShared) before.push_back(module_of_committed_env(name));
    const int hooks_before = module_of_committed_env("hooks");
    umpire::ruleset::reload(t.host);
    for (std::size_t i = 0; i < std::size(kShared); ++i) {
        INFO(kShared[i]);
        const int after = module_of_committed_env(kShared[i]);
        CHECK(same_referent(L, before[i], after));
        luaL_unref(L, LUA_REGISTRYINDEX, after);
        luaL_unref(L, LUA_REGISTRYINDEX, before[i]);
    }
    const int hooks_after = module_of_committed_env("hooks");
    CHECK_FALSE(same_referent(L, hooks_before, hooks_after));
    luaL_unref(L, LUA_REGISTRYINDEX, hooks_before);
    luaL_unref(L, LUA_REGISTRYINDEX, hooks_after);
    CHECK_THROWS_WITH(t.host.run_string("umpire.dice.d6 = nil"), Catch::Contains("umpire.dice is read-only"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.bus.modifiers = nil"), Catch::Contains("umpire.bus is read-only"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.hex.distance = nil"), Catch::Contains("umpire.hex is read-only"));
    CHECK(t.eval("type(umpire.dice.d6) .. type(umpire.hex.distance) .. type(umpire.bus.modifiers)") ==
          "functionfunctionfunction");
    // A table inside a shared module is a view too: a write there would outlive its generation.
    CHECK_THROWS_WITH(t.host.run_string("umpire.dice.classic.dr = function() return 2, 1 end"),
                      Catch::Contains("umpire.dice.classic is read-only"));
    CHECK_THROWS_WITH(t.host.run_string("rawset(umpire.dice.classic, 'dr', print)"),
                      Catch::Contains("read-only view"));
    umpire::ruleset::reload(t.host);
    CHECK(t.eval("type(umpire.dice.classic.dr)") == "function");
}

// The C types a reload adds to the state's FFI type table, which holds at most 65,536 for the
// life of the state: each API generation declared the FFI fast paths again (ffi.cdef adds even a
// repeated declaration), so a session of hot reloads ended in "table overflow" after about 6,000.
// A probe struct declared after each reload takes the next free type ids: as far from the last
// probe as two probes with no reload between them are, nothing leaked.
TEST_CASE("a reload adds no C type to the FFI's table (thousands of reloads must not fill it)", "[reload]") {
    TestHost t;
    umpire::ruleset::load(t.host, {(test_helpers::fixtures() / "house").string()});
    lua_State* L = t.host.state();
    const auto probe = [&](int n) {
        const std::string code = "local ffi = require('ffi') ffi.cdef('struct umpire_reload_probe_" + std::to_string(n) +
                                 " { int a; };') return tonumber(ffi.typeof('struct umpire_reload_probe_" +
                                 std::to_string(n) + "'))";
        REQUIRE(luaL_dostring(L, code.c_str()) == 0);
        const auto id = lua_tointeger(L, -1);
        lua_pop(L, 1);
        return id;
    };
    const lua_Integer first = probe(0);
    const lua_Integer per_probe = probe(1) - first;  // a struct and its field
    REQUIRE(per_probe > 0);
    std::vector<lua_Integer> ids{first + per_probe};
    for (int n = 2; n <= 5; ++n) {
        umpire::ruleset::reload(t.host);
        t.host.run_string("return umpire.dice.d6() + umpire.bus.modifiers('probe'):total()");  // the fast paths work
        ids.push_back(probe(n));
    }
    for (std::size_t i = 1; i < ids.size(); ++i) CHECK(ids[i] - ids[i - 1] == per_probe);
}

// A reload whose data files did not change keeps the committed generation's sealed data tables
// (ruleset/Ruleset.cpp, ReusableData) instead of building and sealing equal ones. What must hold
// for that to be safe is checked here by the identity of the tables (a pointer from the C API)
// and by their values after edits, writes, failures and a second ruleset's rule code.
namespace {

// The address of the table `expr` evaluates to in the committed generation.
const void* table_at(umpire::LuaHost& host, const std::string& expr) {
    const int n = host.run_string("return " + expr, "=probe", true);
    REQUIRE(n == 1);
    REQUIRE(lua_istable(host.state(), -1));
    const void* p = lua_topointer(host.state(), -1);
    lua_pop(host.state(), n);
    return p;
}

// A one-file ruleset in a scratch folder: data/stats.yaml, rules/<name>.lua, scenarios/first.yaml.
fs::path small_ruleset(const std::string& name, const std::string& data_file = "stats") {
    const fs::path dir = test_helpers::scratch_root() / ("reuse-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir / "data");
    fs::create_directories(dir / "rules");
    fs::create_directories(dir / "scenarios");
    test_helpers::write(dir / "ruleset.yaml", "name: " + name + "\ndata: [" + data_file + "]\nmodules: [" + name + "]\n");
    test_helpers::write(dir / "data" / (data_file + ".yaml"), "x: 1\nlist: [1, 2]\n");
    test_helpers::write(dir / "rules" / (name + ".lua"), "return {}\n");
    test_helpers::write(dir / "scenarios/first.yaml", "turns: 3\n");
    return dir;
}

}  // namespace

TEST_CASE("a reload keeps the data tables while no data file changed, and makes new ones when one did", "[reload][reuse]") {
    const fs::path dir = test_helpers::scratch_copy("reuse-tables");
    TestHost t;
    t.host.extension<LoadCache>().settle_margin = std::chrono::nanoseconds(0);
    umpire::ruleset::load(t.host, {(dir / "house").string()});
    const void* first = table_at(t.host, "umpire.data.weapons");
    const std::string before = dump(t.host);
    umpire::ruleset::reload(t.host);
    CHECK(table_at(t.host, "umpire.data.weapons") == first);
    CHECK(dump(t.host) == before);
    // A module edited, data not: the tables are kept, and the new module body reads them.
    test_helpers::write(dir / "house/rules/machine_guns.lua",
                        umpire::LuaHost::read_file(dir / "house/rules/machine_guns.lua") + "\n-- edited\n");
    umpire::ruleset::reload(t.host);
    CHECK(table_at(t.host, "umpire.data.weapons") == first);
    CHECK(t.eval("umpire.rules.machine_guns.breaks('mmg', 10)") == "true");
    // A data file edited: new tables with the new value, in the parent's file too (extends).
    test_helpers::write(dir / "house/data/weapons.yaml",
                        umpire::LuaHost::read_file(dir / "house/data/weapons.yaml") + "\nlmg: {B: 9, fp: 2, rof: [1]}\n");
    umpire::ruleset::reload(t.host);
    CHECK(table_at(t.host, "umpire.data.weapons") != first);
    CHECK(t.eval("umpire.data.weapons.lmg.B") == "9");
    CHECK(t.eval("umpire.data.weapons.mmg.B") == "10");
    const void* second = table_at(t.host, "umpire.data.weapons");
    umpire::ruleset::reload(t.host);
    CHECK(table_at(t.host, "umpire.data.weapons") == second);
    CHECK(t.eval("umpire.data.weapons.lmg.B") == "9");
    // The kept tables are still guarded: a write is refused and undone.
    CHECK_THROWS_WITH(t.host.run_string("umpire.data.weapons.mmg.B = 99"), Catch::Contains("changed umpire.data.weapons.mmg.B"));
    CHECK(t.eval("umpire.data.weapons.mmg.B") == "10");
}

TEST_CASE("a reload after a write to the data sees the data as loaded", "[reload][reuse]") {
    const fs::path dir = test_helpers::scratch_copy("reuse-written");
    TestHost t;
    umpire::ruleset::load(t.host, {(dir / "house").string()});
    const void* first = table_at(t.host, "umpire.data.weapons");
    // A run that writes is refused and put back; the reload keeps the (clean) tables.
    CHECK_THROWS_WITH(t.host.run_string("table.remove(umpire.data.weapons.hmg.rof)"), Catch::Contains("changed umpire.data.weapons.hmg.rof"));
    umpire::ruleset::reload(t.host);
    CHECK(table_at(t.host, "umpire.data.weapons") == first);
    CHECK(t.eval("umpire.data.weapons.hmg.rof[1]") == "2");
    // A write no run's check has put back yet (host code here, through the C API): the reload
    // does not take the written tables but makes new ones from the files.
    lua_State* L = t.host.state();
    t.host.push_env();
    lua_getfield(L, -1, "umpire");
    lua_getfield(L, -1, "data");
    lua_getfield(L, -1, "weapons");
    lua_getfield(L, -1, "mmg");
    lua_pushliteral(L, "B");
    lua_pushnumber(L, 99);
    lua_rawset(L, -3);
    lua_pop(L, 5);
    umpire::ruleset::reload(t.host);
    CHECK(table_at(t.host, "umpire.data.weapons") != first);
    CHECK(t.eval("umpire.data.weapons.mmg.B") == "10");
}

// The scenarios folder is listed again only when its stamp changed (LoadCache::folder_names): a
// name added, removed or renamed changes the folder's mtime and ctime. Each change below waits
// for the next tick of the file system's clock first: a change within the tick of the folder's
// previous change could keep its times, which the usual settle margin (0 here) is for.
TEST_CASE("a reload lists the scenarios folder again only when a name in it changed", "[reload][incremental]") {
    const fs::path dir = small_ruleset("listing");
    const fs::path outside = test_helpers::scratch_root() / "listing-outside.yaml";
    test_helpers::write(outside, "turns: 9\n");
    TestHost t;
    t.host.extension<LoadCache>().settle_margin = std::chrono::nanoseconds(0);
    const auto next_tick = [] { std::this_thread::sleep_for(std::chrono::milliseconds(20)); };
    next_tick();
    umpire::ruleset::load(t.host, {dir.string()});
    const auto listings = [&] { return counts_of(t.host).listings; };
    const auto reload_listings = [&] {
        const long before = listings();
        umpire::ruleset::reload(t.host);
        return listings() - before;
    };
    CHECK(reload_listings() == 0);  // unchanged: the names of the load before
    CHECK(reload_listings() == 0);
    CHECK(t.eval("umpire.data.scenario('first').turns") == "3");
    next_tick();
    test_helpers::write(dir / "scenarios/second.yaml", "turns: 5\n");
    CHECK(reload_listings() == 1);
    CHECK(t.eval("umpire.data.scenario('second').turns") == "5");
    CHECK(reload_listings() == 0);
    next_tick();
    fs::rename(dir / "scenarios/second.yaml", dir / "scenarios/third.yaml");
    CHECK(reload_listings() == 1);
    CHECK_THROWS_WITH(t.host.run_string("umpire.data.scenario('second')"), Catch::Contains("no scenario 'second'"));
    CHECK(t.eval("umpire.data.scenario('third').turns") == "5");
    next_tick();
    fs::remove(dir / "scenarios/first.yaml");
    CHECK(reload_listings() == 1);
    CHECK_THROWS_WITH(t.host.run_string("umpire.data.scenario('first')"), Catch::Contains("no scenario 'first'"));
    // A file swapped for a symlink out of the ruleset: refused, as by a cold load.
    next_tick();
    fs::remove(dir / "scenarios/third.yaml");
    fs::create_symlink(outside, dir / "scenarios/third.yaml");
    CHECK(reload_listings() == 1);
    CHECK_THROWS_WITH(t.host.run_string("umpire.data.scenario('third')"), Catch::Contains("resolves outside its ruleset folder"));
    TestHost cold;
    umpire::ruleset::load(cold.host, {dir.string()});
    CHECK(dump(t.host) == dump(cold.host));
    fs::remove(outside);
}

// A load checks the spec files a manifest names (there, and inside the ruleset folder) but never
// reads them, so a reload takes them from the load before while no folder they are looked up in
// changed (ruleset/Ruleset.cpp, spec_files). Each step compares the spec files the host's cached
// read of the manifest gives with a cold read's, and each change of a name must fail or pass the
// reload as a cold load does (the last good rules staying after a failure).
TEST_CASE("a reload resolves the spec files again only when a folder they are looked up in changed", "[reload][incremental]") {
    const auto next_tick = [] { std::this_thread::sleep_for(std::chrono::milliseconds(20)); };
    const fs::path outside = test_helpers::scratch_root() / "specs-outside";
    fs::remove_all(outside);
    fs::create_directories(outside / "tests");
    test_helpers::write(outside / "a.lua", "-- outside\n");
    test_helpers::write(outside / "tests/a.lua", "-- outside\n");
    test_helpers::write(outside / "tests/b.lua", "-- outside\n");
    for (const bool listed : {true, false}) {  // with `tests:`, and the tests folder as it is
        CAPTURE(listed);
        const fs::path dir = small_ruleset(listed ? "specs-listed" : "specs-folder");
        if (listed)
            test_helpers::write(dir / "ruleset.yaml", "name: specs\ndata: [stats]\nmodules: [specs-listed]\ntests: [tests/a, b]\n");
        fs::create_directories(dir / "tests");
        test_helpers::write(dir / "tests/a.lua", "-- a\n");
        test_helpers::write(dir / "tests/b.lua", "-- b\n");
        TestHost t;
        auto& cache = t.host.extension<LoadCache>();
        cache.settle_margin = std::chrono::nanoseconds(0);
        next_tick();
        umpire::ruleset::load(t.host, {dir.string()});
        const auto resolutions = [&] { return counts_of(t.host).spec_resolutions; };
        // Reloads; true if it loaded (else the last good rules are still there), and the spec files
        // of the cached read are a cold read's.
        const auto reload = [&](long expected_resolutions) {
            const long before = resolutions();
            bool loaded = true;
            try {
                umpire::ruleset::reload(t.host);
            } catch (const umpire::ScriptError&) {
                loaded = false;
                CHECK(t.eval("umpire.ruleset.name") == (listed ? "specs" : "specs-folder"));
            }
            CHECK(resolutions() - before == expected_resolutions);
            if (loaded) CHECK(umpire::ruleset::read_manifest(dir, &cache).tests == umpire::ruleset::read_manifest(dir).tests);
            return loaded;
        };
        CHECK(reload(0));
        next_tick();
        test_helpers::write(dir / "tests/a.lua", "-- a, edited\n");  // no name changed: nothing to resolve
        CHECK(reload(0));
        next_tick();
        fs::remove(dir / "tests/b.lua");
        CHECK(reload(1) == !listed);  // a spec file named and gone
        if (!listed) CHECK(reload(0));
        next_tick();
        test_helpers::write(dir / "tests/b.lua", "-- b\n");
        CHECK(reload(1));
        CHECK(reload(0));
        next_tick();
        test_helpers::write(dir / "b.lua", "-- b, beside the manifest\n");  // looked for there first
        CHECK(reload(1));
        next_tick();
        fs::remove(dir / "b.lua");
        CHECK(reload(1));
        next_tick();
        fs::remove(dir / "tests/a.lua");
        fs::create_symlink(outside / "a.lua", dir / "tests/a.lua");
        CHECK_FALSE(reload(1));
        CHECK_FALSE(reload(1));
        next_tick();
        fs::remove(dir / "tests/a.lua");
        test_helpers::write(dir / "tests/a.lua", "-- a\n");
        CHECK(reload(1));
        CHECK(reload(0));
        next_tick();
        fs::rename(dir / "tests", dir / "tests-moved");
        fs::create_directory_symlink(outside / "tests", dir / "tests");
        CHECK_FALSE(reload(1));
        next_tick();
        fs::remove(dir / "tests");
        fs::rename(dir / "tests-moved", dir / "tests");
        CHECK(reload(1));
        CHECK(reload(0));
        // A spec file that is a symlink to another folder of the ruleset: that folder's names are
        // not stamped, so its resolution is not kept; its target swapped for a symlink out of the
        // ruleset is refused.
        next_tick();
        fs::create_directories(dir / "other");
        test_helpers::write(dir / "other/a.lua", "-- a, elsewhere\n");
        fs::remove(dir / "tests/a.lua");
        fs::create_symlink("../other/a.lua", dir / "tests/a.lua");
        CHECK(reload(1));
        CHECK(reload(1));
        next_tick();
        fs::remove(dir / "other/a.lua");
        fs::create_symlink(outside / "a.lua", dir / "other/a.lua");
        CHECK_FALSE(reload(1));
        fs::remove_all(dir);
    }
    fs::remove_all(outside);
}

TEST_CASE("a failed reload that kept the data tables leaves them and the scenarios as they were", "[reload][reuse]") {
    const fs::path dir = small_ruleset("solo");
    TestHost t;
    umpire::ruleset::load(t.host, {dir.string()});
    const void* first = table_at(t.host, "umpire.data.stats");
    CHECK(t.eval("umpire.data.scenario('first').turns") == "3");
    // Rule code of the failing load writes the kept tables; a new scenario file is seen by it.
    test_helpers::write(dir / "scenarios/second.yaml", "turns: 5\n");
    test_helpers::write(dir / "rules/solo.lua", "umpire.data.stats.x = 2\nreturn {}\n");
    CHECK_THROWS_WITH(umpire::ruleset::reload(t.host), Catch::Contains("loading the rules changed umpire.data.stats.x"));
    CHECK(t.eval("umpire.data.stats.x") == "1");
    CHECK_THROWS_WITH(t.host.run_string("umpire.data.scenario('second')"), Catch::Contains("no scenario 'second'"));
    CHECK(t.eval("umpire.data.scenario('first').turns") == "3");
    // A write and then an error of the load's own.
    test_helpers::write(dir / "rules/solo.lua", "table.remove(umpire.data.stats.list)\nerror('boom')\n");
    CHECK_THROWS_WITH(umpire::ruleset::reload(t.host), Catch::Contains("boom"));
    CHECK(t.eval("#umpire.data.stats.list") == "2");
    CHECK(t.eval("umpire.data.stats.x") == "1");
    // Both run clean afterwards (no write left for the check after a run to find).
    CHECK_NOTHROW(t.host.run_string("return umpire.data.stats.list[2]"));
    // Fixed: the tables are still the first ones, and the new scenario is there.
    test_helpers::write(dir / "rules/solo.lua", "return {}\n");
    umpire::ruleset::reload(t.host);
    CHECK(table_at(t.host, "umpire.data.stats") == first);
    CHECK(t.eval("umpire.data.scenario('second').turns") == "5");
    CHECK(t.eval("umpire.data.stats.x") == "1");
}

TEST_CASE("a second ruleset cannot change the first's data through the kept tables", "[reload][reuse]") {
    const fs::path a = small_ruleset("alpha");
    const fs::path b = small_ruleset("beta", "other");
    TestHost t;
    umpire::ruleset::load(t.host, {a.string(), b.string()});
    const void* first = table_at(t.host, "umpire.data.stats");
    // While loading: refused, and the first ruleset's value stays.
    test_helpers::write(b / "rules/beta.lua", "umpire.data.stats.x = 5\nreturn {}\n");
    CHECK_THROWS_WITH(umpire::ruleset::reload(t.host), Catch::Contains("loading the rules changed umpire.data.stats.x"));
    CHECK(t.eval("umpire.data.stats.x") == "1");
    // Through a function of the new generation, at run time: refused and put back, in the
    // generation that kept the tables and after the next reload.
    test_helpers::write(b / "rules/beta.lua", "return { poke = function() umpire.data.stats.x = 5 end,\n"
                                              "         add = function() umpire.data.stats.y = 5 end }\n");
    umpire::ruleset::reload(t.host);
    CHECK(table_at(t.host, "umpire.data.stats") == first);
    CHECK_THROWS_WITH(t.host.run_string("umpire.rules.beta.poke()"), Catch::Contains("changed umpire.data.stats.x"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.rules.beta.add()"), Catch::Contains("cannot add the key 'y'"));
    CHECK(t.eval("umpire.data.stats.x") == "1");
    umpire::ruleset::reload(t.host);
    CHECK(table_at(t.host, "umpire.data.stats") == first);
    CHECK(t.eval("umpire.data.stats.x") == "1");
    CHECK(t.eval("tostring(umpire.data.stats.y)") == "nil");
    // Loading the first ruleset alone is another data set: a new root without the second's data
    // (its stats table, made from the same file alone, is the pair's).
    const void* pair_root = table_at(t.host, "umpire.data");
    umpire::ruleset::load(t.host, {a.string()});
    CHECK(table_at(t.host, "umpire.data") != pair_root);
    CHECK(table_at(t.host, "umpire.data.stats") == first);
    CHECK(t.eval("tostring(umpire.data.other)") == "nil");
    CHECK(t.eval("umpire.data.stats.x") == "1");
}

namespace {

// Two layers in a scratch folder: `inc-base` with data a.yaml and b.yaml, and `inc-child`
// extending it with its own a.yaml (merged over the base's) and c.yaml. Returns the child.
fs::path layered_ruleset() {
    const fs::path root = test_helpers::scratch_root() / "incremental-data";
    fs::remove_all(root);
    for (const char* name : {"inc-base", "inc-child"}) {
        fs::create_directories(root / name / "data");
        fs::create_directories(root / name / "rules");
        test_helpers::write(root / name / "rules" / (std::string(name) == "inc-base" ? "base.lua" : "child.lua"),
                            "return {}\n");
    }
    test_helpers::write(root / "inc-base/ruleset.yaml", "name: inc-base\ndata: [a, b]\nmodules: [base]\n");
    test_helpers::write(root / "inc-child/ruleset.yaml",
                        "name: inc-child\nextends: inc-base\ndata: [a, c]\nmodules: [child]\n");
    test_helpers::write(root / "inc-base/data/a.yaml", "x: 1\ny: {deep: [1, 2]}\n");
    test_helpers::write(root / "inc-base/data/b.yaml", "list: [3, 4]\nname: bee\n");
    test_helpers::write(root / "inc-child/data/a.yaml", "y: {more: 2}\nz: child\n");
    test_helpers::write(root / "inc-child/data/c.yaml", "- 5\n- {six: 6}\n");
    return root / "inc-child";
}

}  // namespace

TEST_CASE("a reload after one data file changed makes new tables for its name only", "[reload][reuse]") {
    const fs::path child = layered_ruleset();
    const fs::path base = child.parent_path() / "inc-base";
    TestHost t;
    t.host.extension<LoadCache>().settle_margin = std::chrono::nanoseconds(0);
    umpire::ruleset::load(t.host, {child.string()});
    const auto cold = [&] { return cold_dump(child); };
    const void* a = table_at(t.host, "umpire.data.a");
    const void* b = table_at(t.host, "umpire.data.b");
    const void* c = table_at(t.host, "umpire.data.c");
    const void* root = table_at(t.host, "umpire.data");
    // The child's a.yaml: a is new (both layers' files pushed and merged again), b and c kept.
    test_helpers::write(child / "data/a.yaml", "y: {more: 7}\nz: child\n");
    umpire::ruleset::reload(t.host);
    CHECK(table_at(t.host, "umpire.data") != root);
    CHECK(table_at(t.host, "umpire.data.a") != a);
    CHECK(table_at(t.host, "umpire.data.b") == b);
    CHECK(table_at(t.host, "umpire.data.c") == c);
    CHECK(t.eval("umpire.data.a.y.more + umpire.data.a.y.deep[2] + umpire.data.a.x") == "10");
    CHECK(dump(t.host) == cold());
    // The base's b.yaml: b is new; the new a and c are kept.
    a = table_at(t.host, "umpire.data.a");
    test_helpers::write(base / "data/b.yaml", "list: [3, 4, 5]\nname: bee\n");
    umpire::ruleset::reload(t.host);
    CHECK(table_at(t.host, "umpire.data.a") == a);
    CHECK(table_at(t.host, "umpire.data.b") != b);
    CHECK(table_at(t.host, "umpire.data.c") == c);
    CHECK(t.eval("#umpire.data.b.list") == "3");
    CHECK(dump(t.host) == cold());
    // The new root's seal covers the kept tables and the new ones: writes are refused, named
    // and put back, and a new key is refused at once.
    CHECK_THROWS_WITH(t.host.run_string("umpire.data.c[2].six = 0"), Catch::Contains("changed umpire.data.c[2].six"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.data.a.y.deep[1] = 0"), Catch::Contains("changed umpire.data.a.y.deep[1]"));
    CHECK_THROWS_WITH(t.host.run_string("table.insert(umpire.data.b.list, 6)"), Catch::Contains("umpire.data.b.list"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.data.c.new = 1"), Catch::Contains("cannot add the key 'new' to umpire.data.c"));
    CHECK(dump(t.host) == cold());
    // Rule code of a reload that writes a kept table is refused, and the data stays as loaded.
    test_helpers::write(child / "data/a.yaml", "y: {more: 8}\nz: child\n");
    test_helpers::write(child / "rules/child.lua", "umpire.data.c[1] = 0\nreturn {}\n");
    CHECK_THROWS_WITH(umpire::ruleset::reload(t.host), Catch::Contains("loading the rules changed umpire.data.c[1]"));
    CHECK(t.eval("umpire.data.c[1] .. umpire.data.a.y.more") == "57");
    test_helpers::write(child / "rules/child.lua", "return {}\n");
    // A write no run's check has put back (host code, through the C API) is not taken into the
    // next generation: the reload that finds it loads again with fresh tables only.
    lua_State* L = t.host.state();
    t.host.push_env();
    lua_getfield(L, -1, "umpire");
    lua_getfield(L, -1, "data");
    lua_getfield(L, -1, "c");
    lua_pushnumber(L, 99);
    lua_rawseti(L, -2, 1);
    lua_pop(L, 4);
    umpire::ruleset::reload(t.host);
    CHECK(table_at(t.host, "umpire.data.c") != c);
    CHECK(t.eval("umpire.data.c[1] .. umpire.data.a.y.more") == "58");
    CHECK(dump(t.host) == cold());
}

// A commit drops the bus subscriptions of the generations before it (bindings/GameLog.hpp). It
// used to visit every generation since the host's first, a scan of the bus each: a reload's commit
// grew with the number of reloads before it (0.6 M instructions a reload after 10,000). Now each
// commit sweeps the generations since the last commit, and the old handlers are still dropped.
TEST_CASE("a reload's commit sweeps the bus for the generations since the last commit only", "[reload]") {
    const fs::path dir = small_ruleset("subscriber");
    test_helpers::write(dir / "rules/subscriber.lua", "umpire.bus.on('ping', function() end)\nreturn {}\n");
    TestHost t;
    umpire::ruleset::load(t.host, {dir.string()});
    auto& log = t.host.extension<umpire::GameLog>();
    const auto swept_before = log.swept_generations;
    constexpr int kReloads = 60;
    for (int i = 0; i < kReloads; ++i) umpire::ruleset::reload(t.host);
    // One generation a reload (its predecessor); sweeping from the first would be 60 * 61 / 2 more.
    CHECK(log.swept_generations - swept_before == kReloads);
    // Failed reloads in between: their generations are swept once more by the next commit.
    test_helpers::write(dir / "rules/subscriber.lua", "umpire.bus.on('ping', function() end)\nreturn {\n");
    CHECK_THROWS(umpire::ruleset::reload(t.host));
    test_helpers::write(dir / "rules/subscriber.lua", "umpire.bus.on('ping', function() end)\nreturn {}\n");
    umpire::ruleset::reload(t.host);
    CHECK(log.swept_generations - swept_before == kReloads + 2);
    // The handlers are replaced, never doubled, and no older generation keeps one.
    CHECK(log.bus.subscriptions("ping").size() == 1);
    const auto current = t.host.registry().current_generation();
    for (std::uint64_t g = 0; g < current; ++g) CHECK(log.bus.subscription_count("generation " + std::to_string(g)) == 0);
}

TEST_CASE("failed reloads in a row leave the committed data guarded", "[reload][reuse]") {
    // Each failed load below seals its own new tables before its module fails to compile; the
    // guard keeps two seals, and must not drop the committed generation's to make room.
    const fs::path dir = small_ruleset("twice");
    TestHost t;
    umpire::ruleset::load(t.host, {dir.string()});
    for (int attempt = 0; attempt < 3; ++attempt) {
        test_helpers::write(dir / "data/stats.yaml", "x: " + std::to_string(10 + attempt) + "\nlist: [1, 2]\n");
        test_helpers::write(dir / "rules/twice.lua", "return {\n");
        CHECK_THROWS(umpire::ruleset::reload(t.host));
    }
    CHECK_THROWS_WITH(t.host.run_string("umpire.data.stats.x = 99"), Catch::Contains("changed umpire.data.stats.x"));
    CHECK(t.eval("umpire.data.stats.x") == "1");
}

// The registry's table of the sandbox's read-only views (host/Sandbox.cpp, kViewsKey) must not keep
// the views of generations gone. A real table that reaches its own view (a rule module whose
// functions keep umpire.rules, whose real table holds that module's view) kept every reload's views
// alive while the table's values were strong, and each collection walked them all: a long watch or
// serve session reloaded ever more slowly (asl: 265 µs a reload after 267 reloads, 675 µs after
// 3,688).
TEST_CASE("a reload leaves no view of the generations gone", "[reload][sandbox]") {
    TestHost t;
    lua_State* L = t.host.state();
    const auto views = [&] {
        lua_gc(L, LUA_GCCOLLECT, 0);
        lua_gc(L, LUA_GCCOLLECT, 0);
        lua_getfield(L, LUA_REGISTRYINDEX, "umpire.sandbox.views");
        REQUIRE(lua_istable(L, -1));
        int n = 0;
        lua_pushnil(L);
        while (lua_next(L, -2) != 0) {
            lua_pop(L, 1);
            ++n;
        }
        lua_pop(L, 1);
        return n;
    };
    umpire::ruleset::load(t.host, {(fs::path(UMPIRE_SOURCE_DIR) / "rulesets" / "asl").string()});
    const int one = views();
    for (int i = 0; i < 20; ++i) umpire::ruleset::reload(t.host);
    CHECK(views() <= one);
    // (the module's view still walks to its functions: `fire` among them)
    CHECK(t.eval("(function() for k in pairs(umpire.rules.mg_attack) do if k == 'fire' then return true end end "
                 "return false end)()") == "true");
}

// A weak-keyed side table holds its values strongly (LuaJIT has no ephemerons). The marks of a
// data table's keys were a table of their own, the value of the data table in such a side table,
// so they outlived the data table by one collection cycle: each cycle carried the mark tables of
// every data table that died since the last one, and the next cycle's pause grew with them (after
// each data edit of asl the heap a full collection left grew, 0.6 MB alive swinging between 1 and
// 13 MB). Now a table's key marks are one interned string (bindings/DataMarks.hpp, KeyMarks):
// what one full collection leaves after data edits, a second must not free.
TEST_CASE("a data edit's reload leaves no garbage that outlives a collection", "[reload][reuse]") {
    const fs::path dir = small_ruleset("carry");
    std::string yaml;
    for (int i = 0; i < 200; ++i) yaml += "w" + std::to_string(i) + ": {a: 1, b: 2, c: [1, 2], d: x}\n";
    test_helpers::write(dir / "data/stats.yaml", yaml + "x: 0\n");
    TestHost t;
    t.host.extension<LoadCache>().settle_margin = std::chrono::nanoseconds(0);
    umpire::ruleset::load(t.host, {dir.string()});
    lua_State* L = t.host.state();
    lua_gc(L, LUA_GCCOLLECT, 0);
    lua_gc(L, LUA_GCSTOP, 0);  // no cycle during the edits: their garbage waits for the collections below
    for (int edit = 1; edit <= 20; ++edit) {
        test_helpers::write(dir / "data/stats.yaml", yaml + "x: " + std::to_string(edit) + "\n");  // a value, same line
        umpire::ruleset::reload(t.host);
    }
    lua_gc(L, LUA_GCCOLLECT, 0);  // (restarts the collector)
    const int after_one = lua_gc(L, LUA_GCCOUNT, 0);
    lua_gc(L, LUA_GCCOLLECT, 0);
    const int after_two = lua_gc(L, LUA_GCCOUNT, 0);
    CHECK(after_one - after_two <= 8);  // KB (with a mark table per data table: ~1 MB)
    // The marks still answer, for a key of a map, an item of a list and a table itself.
    using Catch::Matchers::EndsWith;
    CHECK(t.eval("umpire.data.stats.x") == "20");
    CHECK_THAT(t.eval("umpire.where(umpire.data.stats.w7, 'c')"), EndsWith("stats.yaml:8:18"));
    CHECK_THAT(t.eval("umpire.where(umpire.data.stats.w7.c, 2)"), EndsWith("stats.yaml:8:25"));
    CHECK_THAT(t.eval("umpire.where(umpire.data.stats, 'x')"), EndsWith("stats.yaml:201:1"));
    CHECK_THAT(t.eval("umpire.where(umpire.data.stats.w7)"), EndsWith("stats.yaml:8:5"));
    CHECK(t.eval("umpire.where(umpire.data.stats.w7, 'e')") == "nil");
}

namespace {

// A module whose hits() is the data's x times `factor`, and whose validate refuses x over 5 at
// the value's place in the YAML.
std::string attack_module(int factor) {
    return "local M = {}\n"
           "function M.hits() return umpire.data.stats.x * " + std::to_string(factor) + " end\n"
           "function M.validate(data)\n"
           "  if data.stats.x > 5 then error(umpire.where(data.stats, 'x') .. ': x is at most 5', 0) end\n"
           "end\n"
           "return M\n";
}

// Three modules of one ruleset: `attack` reads the data at call time, `caller` reaches attack
// through umpire.rules at call time, and `captor` took attack's table (and one result) while its
// body ran. Every module body runs again at each reload, so all three see an edit of either.
fs::path three_modules(const std::string& name) {
    const fs::path dir = test_helpers::scratch_root() / ("edits-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir / "data");
    fs::create_directories(dir / "rules");
    test_helpers::write(dir / "ruleset.yaml", "name: " + name + "\ndata: [stats]\nmodules: [attack, caller, captor]\n");
    test_helpers::write(dir / "data/stats.yaml", "x: 1\n");
    test_helpers::write(dir / "rules/attack.lua", attack_module(10));
    test_helpers::write(dir / "rules/caller.lua",
                        "return { total = function() return umpire.rules.attack.hits() + 1 end }\n");
    test_helpers::write(dir / "rules/captor.lua",
                        "local attack = umpire.rules.attack\n"
                        "local at_load = attack.hits()\n"
                        "return { captured = function() return attack.hits() end,\n"
                        "         at_load = function() return at_load end }\n");
    return dir;
}

}  // namespace

TEST_CASE("an edit that changes a result is seen after the reload, by callers and by a module that captured", "[reload][edits]") {
    const fs::path dir = three_modules("seen");
    TestHost t;
    umpire::ruleset::load(t.host, {dir.string()});
    const auto results = [&] {
        return t.eval("umpire.rules.caller.total()") + " " + t.eval("umpire.rules.captor.captured()") + " " +
               t.eval("umpire.rules.captor.at_load()");
    };
    CHECK(results() == "11 10 10");
    // A module edit: its callers and the module that captured its table see the new code.
    test_helpers::write(dir / "rules/attack.lua", attack_module(100));
    umpire::ruleset::reload(t.host);
    CHECK(results() == "101 100 100");
    // A data edit: every module sees the new value, the one computed at load time included.
    test_helpers::write(dir / "data/stats.yaml", "x: 2\n");
    umpire::ruleset::reload(t.host);
    CHECK(t.eval("umpire.data.stats.x") == "2");
    CHECK(results() == "201 200 200");
    // The same as a cold load of the edited files.
    CHECK(dump(t.host) == cold_dump(dir));
}

TEST_CASE("a broken edit is refused with its file and line, and the last good rules stay", "[reload][edits]") {
    const fs::path dir = three_modules("broken");
    TestHost t;
    umpire::ruleset::load(t.host, {dir.string()});
    test_helpers::write(dir / "rules/attack.lua", attack_module(100));
    umpire::ruleset::reload(t.host);
    const std::string good = dump(t.host);
    const auto kept = [&] {
        CHECK(dump(t.host) == good);
        CHECK(t.eval("umpire.rules.caller.total()") == "101");
        CHECK(t.eval("umpire.rules.captor.at_load()") == "100");
    };
    // A syntax error in a module (line 3).
    test_helpers::write(dir / "rules/attack.lua", "local M = {}\nfunction M.hits() return 1 end\nlocal = 2\nreturn M\n");
    CHECK_THROWS_WITH(umpire::ruleset::reload(t.host), Catch::Contains("attack.lua:3:"));
    kept();
    // A module body that raises (line 2 of captor, after attack is fixed again).
    test_helpers::write(dir / "rules/attack.lua", attack_module(100));
    test_helpers::write(dir / "rules/captor.lua", "local attack = umpire.rules.attack\nerror('no captor today')\n");
    CHECK_THROWS_WITH(umpire::ruleset::reload(t.host), Catch::Contains("captor.lua:2:") && Catch::Contains("no captor today"));
    kept();
    three_modules("broken");  // every file as at the start...
    test_helpers::write(dir / "rules/attack.lua", attack_module(100));  // ...but attack's good edit
    // A data edit that the module's validate() refuses, placed at the value (stats.yaml:2).
    test_helpers::write(dir / "data/stats.yaml", "# x at most 5\nx: 9\n");
    CHECK_THROWS_WITH(umpire::ruleset::reload(t.host), Catch::Contains("stats.yaml:2:") && Catch::Contains("x is at most 5"));
    kept();
    CHECK(t.eval("umpire.data.stats.x") == "1");
    // A data file that no longer parses.
    test_helpers::write(dir / "data/stats.yaml", "x: 1\nlist: [1, 2\n");
    CHECK_THROWS_WITH(umpire::ruleset::reload(t.host), Catch::Contains("stats.yaml:"));
    kept();
    // Fixed: loads again, as a cold load does.
    test_helpers::write(dir / "data/stats.yaml", "x: 3\n");
    umpire::ruleset::reload(t.host);
    CHECK(t.eval("umpire.rules.caller.total()") == "301");
    CHECK(dump(t.host) == cold_dump(dir));
}

TEST_CASE("a reload whose rule code writes the kept data prints its output once", "[reload][reuse]") {
    const fs::path dir = small_ruleset("printer");
    TestHost t;
    umpire::ruleset::load(t.host, {dir.string()});
    const auto printed = [&](const std::string& line) { return std::count(t.lines.begin(), t.lines.end(), line); };
    // A body that prints, then writes the kept data: the load that kept the tables is made again
    // with fresh ones, and fails there too; what the body printed is shown once, not twice.
    test_helpers::write(dir / "rules/printer.lua", "print('body ran')\numpire.data.stats.x = 2\nreturn {}\n");
    t.lines.clear();
    CHECK_THROWS_WITH(umpire::ruleset::reload(t.host), Catch::Contains("loading the rules changed umpire.data.stats.x"));
    CHECK(printed("body ran") == 1);
    CHECK(t.eval("umpire.data.stats.x") == "1");
    // A body that prints and loads: once, before the reload returns.
    test_helpers::write(dir / "rules/printer.lua", "print('loaded')\nreturn {}\n");
    t.lines.clear();
    umpire::ruleset::reload(t.host);
    CHECK(printed("loaded") == 1);
    // A body that prints, then fails on its own: shown once.
    test_helpers::write(dir / "rules/printer.lua", "print('about to fail')\nerror('boom')\n");
    t.lines.clear();
    CHECK_THROWS_WITH(umpire::ruleset::reload(t.host), Catch::Contains("boom"));
    CHECK(printed("about to fail") == 1);
}
