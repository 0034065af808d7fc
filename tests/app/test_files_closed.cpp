// "No file opened after loading" (docs/sandbox.md): `run`, `odds` (its Monte Carlo threads, its
// fallback from exact to Monte Carlo, --compare) and `replay` close their worker's files once they
// have loaded. Each case runs the real code path (replay::play, odds_runner::run_script) in a
// worker made as the CLI makes it, with a native hook standing for code that escaped the VM: the
// host's print function, called by rule code, tries to open a file of the ruleset folder. While the
// rules load (a module body) it opens; once loaded (the script, every odds path and sample, on
// every thread) it is refused, and the scenarios, read at load, still answer.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "app/Checker.hpp"
#include "app/OddsRunner.hpp"
#include "app/Replay.hpp"
#include "app/ScenarioDraw.hpp"
#include "app/ServePage.hpp"
#include "app/SpecRunner.hpp"
#include "host/FileSnapshot.hpp"
#include "host/Isolation.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/Ruleset.hpp"
#include "ruleset/Shared.hpp"
#include "tests/support/helpers.hpp"

namespace {

namespace fs = std::filesystem;
namespace isolation = umpire::isolation;

// Two rulesets side by side: `house` (data, a module, a scenario, a notes file) and `variant`,
// which extends it with a scenario of its own. The module's body opens the notes file through the
// hook while it loads.
fs::path make_rulesets() {
    const fs::path root = test_helpers::scratch_root() / "files-closed";
    fs::remove_all(root);
    const fs::path house = root / "house";
    for (const auto* sub : {"data", "rules", "scenarios"}) fs::create_directories(house / sub);
    test_helpers::write(house / "ruleset.yaml", "name: house\ndata: [units]\nmodules: [shoot]\n");
    test_helpers::write(house / "data" / "units.yaml", "squad: {men: 7}\n");
    test_helpers::write(house / "notes.txt", "the house's notes\n");
    test_helpers::write(house / "rules" / "shoot.lua",
                        "print('load:' .. umpire.args.notes)\n"
                        "return {hits = function(d) return d >= 4 end}\n");
    test_helpers::write(house / "scenarios" / "ambush.yaml", "bonus: 2\nname: Ambush\nmap:\n  hexes:\n    K6: woods\n");
    // Complete, readable under the first layer, and never read before the files close.
    const fs::path other = root / "other";
    fs::create_directories(other);
    test_helpers::write(other / "ruleset.yaml", "name: other\n");
    const fs::path variant = root / "variant";
    fs::create_directories(variant / "scenarios");
    test_helpers::write(variant / "ruleset.yaml", "name: variant\nextends: house\n");
    test_helpers::write(variant / "scenarios" / "ambush.yaml", "bonus: 3\nname: Variant ambush\n");
    return root;
}

// The hook: "load:PATH" and "open:PATH" lines try to open PATH; each distinct (kind, thread,
// result) is sent to the parent once, as "load opened", "open refused on another thread", ...
umpire::HostOptions probing_options(const fs::path& notes) {
    umpire::HostOptions options;
    options.args["notes"] = notes.string();
    const std::thread::id main_thread = std::this_thread::get_id();
    options.print = [main_thread](const std::string& line) {
        const auto colon = line.find(':');
        if (!line.starts_with("open:") && !line.starts_with("load:")) {
            isolation::send("line", line);
            return;
        }
        const std::string kind = line.substr(0, colon), path = line.substr(colon + 1);
        const int fd = ::open(path.c_str(), O_RDONLY);
        const int error = errno;
        if (fd >= 0) ::close(fd);
        const std::string result = fd >= 0 ? "opened" : error == EACCES ? "refused" : std::string("failed: ") + std::strerror(error);
        const std::string where = std::this_thread::get_id() == main_thread ? "" : " on another thread";
        static std::mutex mutex;
        static std::set<std::string> sent;
        const std::string report = kind + " " + result + where;
        std::lock_guard lock(mutex);
        if (sent.insert(report).second) isolation::send("probe", report);
    };
    return options;
}

// `keep`: as `odds` (keep_files_for_reload); without, as `run` and `replay`.
isolation::Limits closing_limits(const fs::path& root, bool keep) {
    isolation::Limits limits;
    limits.address_space = std::size_t{1024} << 20;
    limits.cpu_seconds = 60;
    limits.confine_files = true;
    limits.readable = {root};
    limits.close_files_after_load = true;
    limits.keep_files_for_reload = keep;
    return limits;
}

// Runs body in such a worker; returns what it sent, and the worker's exit code or death message.
struct Sent {
    std::set<std::string> probes;
    std::vector<std::string> lines;
    std::string died;
    int rc = -1;
};
// `also_readable`: more folders beneath which the worker may read (the shipped schemas, for check).
Sent in_worker(const fs::path& root, const std::function<int()>& body, bool keep = true,
               const std::vector<fs::path>& also_readable = {}) {
    Sent sent;
    isolation::Limits limits = closing_limits(root, keep);
    for (const auto& folder : also_readable) limits.readable.push_back(folder);
    try {
        sent.rc = isolation::run(limits, [&] {
            try {
                return body();
            } catch (const std::exception& e) {
                isolation::send("line", std::string("error: ") + e.what());
                return 1;
            }
        }, {}, [&](const std::string& topic, const std::string& payload) {
            if (topic == "probe") sent.probes.insert(payload);
            else sent.lines.push_back(payload);
        });
    } catch (const std::exception& e) {
        sent.died = e.what();
    }
    return sent;
}

// Inside a worker: runs step and sends `done` as a line, or the error it raised instead.
void send_outcome(const std::function<void()>& step, const std::string& done) {
    try {
        step();
        isolation::send("line", done);
    } catch (const std::exception& e) {
        isolation::send("line", e.what());
    }
}

// house's spec file, whose test opens the notes file through the hook; returns the notes file.
fs::path write_probing_spec(const fs::path& root) {
    fs::create_directories(root / "house" / "tests");
    test_helpers::write(root / "house" / "tests" / "shoot.lua",
                        "test('hits on a 4, with the scenario read at load', function()\n"
                        "  print('open:' .. umpire.args.notes)\n"
                        "  assert(umpire.rules.shoot.hits(4) and umpire.data.scenario('ambush').bonus == 2)\n"
                        "end)\n");
    return root / "house" / "notes.txt";
}

bool skipped_without_landlock() {
    if (isolation::landlock_abi() > 0) return false;
    WARN("SKIPPED: this kernel has no Landlock, so a worker's files cannot be closed after loading "
         "(docs/sandbox.md); nothing was checked");
    return true;
}

}  // namespace

TEST_CASE("files closed: run/replay refuse a file of the ruleset after loading, and scenarios still answer",
          "[isolation][attacks][landlock]") {
    if (skipped_without_landlock()) return;
    const fs::path root = make_rulesets();
    const fs::path notes = root / "house" / "notes.txt";
    const Sent sent = in_worker(root, [&] {
        umpire::LuaHost host(probing_options(notes));
        const std::string code =
            "print('open:' .. umpire.args.notes)\n"
            "local a = umpire.data.scenario('ambush')\n"
            "a.bonus = 99  -- a call returns a table of its own\n"
            "print(umpire.data.scenario('ambush').name .. ' ' .. umpire.data.scenario('ambush').bonus)\n"
            "local ok, err = pcall(umpire.data.scenario, 'nowhere')\n"
            "print(err)\n";
        umpire::replay::play(host, 1, {(root / "variant").string()}, {{"code", code}, {"script", ""}});
        isolation::send("line", isolation::files_closed() ? "closed" : "open");
        // run and replay never load again: nothing of the ruleset stays in memory for it.
        isolation::send("line", "kept " + std::to_string(umpire::file_snapshot::files()) + " files");
        return 0;
    }, false);
    INFO(sent.died);
    CHECK(sent.rc == 0);
    CHECK(sent.probes == std::set<std::string>{"load opened", "open refused"});
    REQUIRE(sent.lines.size() == 4);
    CHECK(sent.lines[3] == "kept 0 files");
    CHECK(sent.lines[0] == "Variant ambush 3");  // the child's scenario hides its parent's
    CHECK(sent.lines[1].find("umpire.data.scenario: no scenario 'nowhere' (looked in") != std::string::npos);
    CHECK(sent.lines[1].find("variant/scenarios") != std::string::npos);
    CHECK(sent.lines[1].find("house/scenarios") != std::string::npos);
    CHECK(sent.lines[2] == "closed");
}

TEST_CASE("files closed: odds refuses a file of the ruleset on every path, in Monte Carlo threads, "
          "after the fallback to Monte Carlo and for --compare", "[isolation][attacks][landlock]") {
    if (skipped_without_landlock()) return;
    const fs::path root = make_rulesets();
    const fs::path notes = root / "house" / "notes.txt";
    const fs::path script = root / "probe.lua";
    // Two dice: 36 paths, past a budget of 10, so the exact enumeration gives up and Monte Carlo
    // loads a host per thread after rule code has run.
    test_helpers::write(script,
                        "print('open:' .. umpire.args.notes)\n"
                        "local bonus = umpire.data.scenario('ambush').bonus\n"
                        "return umpire.rules.shoot.hits(umpire.dice.d(6)) and umpire.dice.d(6) + bonus or 0\n");
    umpire::odds_runner::Request request;
    request.host = probing_options(notes);
    request.rulesets = {(root / "house").string()};
    request.script = script;
    request.odds.budget = 10;
    request.odds.monte_carlo.samples = 4 * umpire::odds::MonteCarloOptions::chunk_size;
    request.odds.monte_carlo.threads = 2;
    const Sent sent = in_worker(root, [&] {
        umpire::ruleset::read_ahead({(root / "variant").string()}, umpire::ruleset::search_path(request.host.search_path));
        const auto house = umpire::odds_runner::run_script(request);
        umpire::odds_runner::Request compare = request;
        compare.rulesets = {(root / "variant").string()};
        const auto variant = umpire::odds_runner::run_script(compare);
        // Each side's outcomes: 0 on a miss, else a d6 plus the scenario's bonus (2, or 3 in the
        // variant), so the largest outcome tells which scenario each side read.
        const auto largest = [](const umpire::odds::Result& r) {
            double most = 0;
            for (const auto& o : r.outcomes)
                if (const auto* n = std::get_if<double>(&o.outcome.scalar())) most = std::max(most, *n);
            return most;
        };
        isolation::send("line", std::to_string(static_cast<int>(largest(house))) + " " +
                                    std::to_string(static_cast<int>(largest(variant))) + " " +
                                    (house.is_exact() ? "exact" : "monte carlo"));
        isolation::send("line", umpire::file_snapshot::files() >= 6 ? "kept" : "not kept");
        // A ruleset nobody read ahead cannot be loaded any more: the loader is refused too.
        umpire::odds_runner::Request unread = request;
        unread.rulesets = {(root / "other").string()};
        send_outcome([&] { umpire::odds_runner::run_script(unread); }, "an unread ruleset loaded");
        return 0;
    });
    INFO(sent.died);
    CHECK(sent.rc == 0);
    // The first host's module body opens the file while it loads; the hosts loaded after the files
    // closed (Monte Carlo's, --compare's) load from memory, and their module bodies are refused.
    CHECK(sent.probes == std::set<std::string>{"load opened", "load refused", "open refused",
                                               "open refused on another thread"});
    REQUIRE(sent.lines.size() == 3);
    CHECK(sent.lines[0] == "8 9 monte carlo");
    CHECK(sent.lines[1] == "kept");  // both manifests, the data, the module, both scenarios
    CHECK(sent.lines[2].find("cannot read") != std::string::npos);
    CHECK(sent.lines[2].find("other/ruleset.yaml") != std::string::npos);
}

// Two rulesets of two modules each: `big`'s modules are 3 MiB of comments (no Lua memory), so the
// two pass a 4 MiB cap once kept and one does not; `small`'s are a line each.
fs::path make_big_and_small() {
    const fs::path root = test_helpers::scratch_root() / "files-kept";
    fs::remove_all(root);
    for (const auto* name : {"big", "small"}) {
        fs::create_directories(root / name / "rules");
        test_helpers::write(root / name / "ruleset.yaml",
                            std::string("name: ") + name + "\nmodules: [a, b]\n");
        const std::size_t lines = std::string(name) == "big" ? 3 * 16384 : 1;
        std::string text;
        for (std::size_t i = 0; i < lines; ++i) text += "-- a line of sixty-four bytes that takes no Lua memory at all\n";
        for (const auto* module : {"a", "b"}) test_helpers::write(root / name / "rules" / (std::string(module) + ".lua"), text + "return {}\n");
    }
    return root;
}

// The files kept for the loads after the close count against the memory cap of each host that
// loads (host/FileSnapshot.hpp): a ruleset of large files (each under the 16 MiB file cap, and
// taking no Lua memory: a module of comments) is refused at the cap with the file's name, the
// host stays usable, and a later host that would load from the kept files is refused before it
// loads if they do not fit its cap. Before, the kept files were charged to no host.
TEST_CASE("files closed: the files odds keeps in memory count against each host's memory cap",
          "[isolation][attacks][memory]") {
    const fs::path root = make_big_and_small();
    const Sent sent = in_worker(root, [&] {
        umpire::HostOptions small_cap;
        small_cap.memory_limit = std::size_t{4} << 20;
        umpire::HostOptions roomy;  // 256 MiB
        {
            umpire::LuaHost host(small_cap);
            send_outcome([&] { umpire::ruleset::load(host, {(root / "big").string()}); }, "big loaded under 4 MiB");
            host.run_string("x = 41");
            isolation::send("line", host.run_string("return x + 1", "=(check)", true) == 1 ? "alive" : "dead");
        }
        {
            umpire::LuaHost host(roomy);  // keeps both files (6 MiB)
            umpire::ruleset::load(host, {(root / "big").string()});
            isolation::send("line", "big loaded under 256 MiB");
        }
        umpire::LuaHost host(small_cap);  // would load from memory beside 6 MiB of kept files
        send_outcome([&] { umpire::ruleset::load(host, {(root / "small").string()}); },
                     "small loaded under 4 MiB beside the kept files");
        return 0;
    });
    INFO(sent.died);
    CHECK(sent.rc == 0);
    REQUIRE(sent.lines.size() == 4);
    CHECK_THAT(sent.lines[0], Catch::Contains("big/rules/b.lua:1:1: memory limit: keeping it (~3 MiB) with the ruleset "
                                              "files kept in memory for the loads after this worker's files close"));
    CHECK_THAT(sent.lines[0], Catch::Contains("would pass the Lua memory cap"));
    CHECK(sent.lines[1] == "alive");
    CHECK(sent.lines[2] == "big loaded under 256 MiB");
    CHECK_THAT(sent.lines[3], Catch::Contains("memory limit: the ruleset files kept in memory for the loads after "
                                              "this worker's files close ("));
}

// Every host that carries the kept files carries those kept after its own load too, and the
// kept files stop at file_snapshot::limit (the cap) even with no host recording (a read-ahead:
// `odds --compare`, `test`, a `serve` page). Before, a host loaded earlier carried only what was
// kept when it loaded (here 6 MiB more were kept beside a 4 MiB host), and a read-ahead kept
// whatever the files held, charged to nobody until the next load.
TEST_CASE("files closed: a host loaded earlier carries the files kept later, and a read-ahead stops at the cap",
          "[isolation][attacks][memory]") {
    const fs::path root = make_big_and_small();
    const Sent earlier = in_worker(root, [&] {
        umpire::HostOptions small_cap;
        small_cap.memory_limit = std::size_t{4} << 20;
        umpire::LuaHost host(small_cap);
        umpire::ruleset::load(host, {(root / "small").string()});
        {
            umpire::LuaHost roomy;  // 256 MiB: room for both, but the earlier host carries them too
            send_outcome([&] { umpire::ruleset::load(roomy, {(root / "big").string()}); },
                         "big loaded beside a host of 4 MiB");
        }
        isolation::send("line", host.run_string("return 41 + 1", "=(check)", true) == 1 ? "alive" : "dead");
        return 0;
    });
    INFO(earlier.died);
    CHECK(earlier.rc == 0);
    REQUIRE(earlier.lines.size() == 2);
    CHECK_THAT(earlier.lines[0], Catch::Contains("big/rules/b.lua:1:1: memory limit: keeping it (~3 MiB) with the ruleset "
                                                 "files kept in memory"));
    CHECK(earlier.lines[1] == "alive");

    const Sent ahead = in_worker(root, [&] {
        umpire::file_snapshot::limit(std::size_t{4} << 20);
        umpire::ruleset::read_ahead({(root / "big").string()}, umpire::ruleset::search_path(std::vector<fs::path>{}));
        isolation::send("line", umpire::file_snapshot::bytes() <= (std::size_t{4} << 20) ? "within the cap"
                                                                                         : "past the cap");
        umpire::LuaHost roomy;
        send_outcome([&] { umpire::ruleset::load(roomy, {(root / "big").string()}); }, "big loaded past the limit");
        return 0;
    });
    INFO(ahead.died);
    CHECK(ahead.rc == 0);
    REQUIRE(ahead.lines.size() == 2);
    CHECK(ahead.lines[0] == "within the cap");
    CHECK_THAT(ahead.lines[1], Catch::Contains("big/rules/b.lua:1:1: memory limit: keeping it (~3 MiB)"));
}

// `umpire test` (cli/cmd_test.cpp) in a worker: every ruleset's files and spec files are read ahead
// and kept, the files are closed before any rule code runs, and then each ruleset loads from
// memory and its specs run with no file open: the module body at load and the spec are refused a
// file of their ruleset, and the spec still passes. Before, `test` kept its reads beneath the
// ruleset folders open while rule code ran.
TEST_CASE("files closed: test reads the rulesets and their specs ahead, then loads and runs them with no file open",
          "[isolation][attacks][landlock]") {
    if (skipped_without_landlock()) return;
    const fs::path root = make_rulesets();
    const fs::path notes = write_probing_spec(root);
    const Sent sent = in_worker(root, [&] {
        const umpire::HostOptions options = probing_options(notes);
        const std::vector<std::string> names = {(root / "house").string(), (root / "variant").string()};
        umpire::ruleset::read_ahead(names, umpire::ruleset::search_path(options.search_path), true);
        isolation::send("line", isolation::close_files() ? "closed" : "open");
        std::ostringstream out;
        umpire::SpecResult total;
        for (const auto& name : names) {
            umpire::LuaHost host(options);
            umpire::ruleset::load(host, {name});
            const auto manifest = umpire::ruleset::read_manifest(name);
            for (std::size_t i = 0; i < manifest.tests.size(); ++i) {
                const umpire::SpecResult r = umpire::run_spec_file(host, manifest.tests[i], manifest.tests_real[i], out);
                total.passed += r.passed;
                total.failed += r.failed;
            }
        }
        isolation::send("line", std::to_string(total.passed) + " passed, " + std::to_string(total.failed) + " failed");
        if (total.failed) isolation::send("line", out.str());
        return 0;
    });
    INFO(sent.died);
    CHECK(sent.rc == 0);
    CHECK(sent.probes == std::set<std::string>{"load refused", "open refused"});
    REQUIRE(sent.lines.size() == 2);
    CHECK(sent.lines[0] == "closed");
    CHECK(sent.lines[1] == "1 passed, 0 failed");
}

// `umpire check` (cli/cmd_check.cpp, app/Checker.hpp: check_rulesets) in a worker: the manifests,
// data files and scenarios are validated against their schemas (no rule code), every file of the
// rulesets and their specs is read ahead and kept, the files close, and then each ruleset loads
// from memory and its specs run with no file open: the module body and the spec are refused a
// file of their ruleset, and both rulesets still check whole. Before (session 35), `check` ran one
// ruleset after the other with its reads beneath the ruleset folders open while rule code ran.
TEST_CASE("files closed: check validates every ruleset first, then loads them and runs their specs with no file open",
          "[isolation][attacks][landlock]") {
    if (skipped_without_landlock()) return;
    const fs::path root = make_rulesets();
    const fs::path notes = write_probing_spec(root);
    const Sent sent = in_worker(root, [&] {
        const std::vector<std::string> names = {(root / "house").string(), (root / "variant").string()};
        std::vector<std::string> specs;
        const auto results = umpire::check_rulesets(names, probing_options(notes), specs);
        isolation::send("line", isolation::files_closed() ? "closed" : "open");
        for (std::size_t i = 0; i < results.size(); ++i) {
            std::string problems;
            for (const auto& p : results[i].problems) problems += " " + p;
            isolation::send("line", fs::path(names[i]).filename().string() + ": " + std::to_string(results[i].specs_passed) +
                                        " passed, " + std::to_string(results[i].specs_failed) + " failed," + problems);
        }
        return 0;
    }, true, {umpire::ruleset::shared().schemas});
    INFO(sent.died);
    CHECK(sent.rc == 0);
    CHECK(sent.probes == std::set<std::string>{"load refused", "open refused"});
    REQUIRE(sent.lines.size() == 3);
    CHECK(sent.lines[0] == "closed");
    CHECK(sent.lines[1] == "house: 1 passed, 0 failed,");
    CHECK(sent.lines[2] == "variant: 0 passed, 0 failed,");
}

// `umpire draw` (cli/cmd_draw.cpp, app/ScenarioDraw.hpp: draw_with_rules) in a worker: the
// scenario is read and the rules loaded (their module bodies may still open a ruleset file, as in
// `run`), then the files close, and the rules' draw hooks run with no file open; the picture is
// drawn whole from the scenario kept in memory. Before (session 35), `draw` kept its reads
// beneath the ruleset folders open while the hooks ran.
TEST_CASE("files closed: draw reads the scenario and loads the rules, then runs the draw hooks with no file open",
          "[isolation][attacks][landlock]") {
    if (skipped_without_landlock()) return;
    const fs::path root = make_rulesets();
    const fs::path notes = root / "house" / "notes.txt";
    test_helpers::write(root / "house" / "rules" / "shoot.lua",
                        "print('load:' .. umpire.args.notes)\n"
                        "umpire.hooks.on('draw', function(scenario, overlay) print('open:' .. umpire.args.notes) end)\n"
                        "return {hits = function(d) return d >= 4 end}\n");
    const Sent sent = in_worker(root, [&] {
        send_outcome([&] {
            const std::string svg = umpire::draw_with_rules("ambush", {(root / "house").string()}, probing_options(notes), {});
            isolation::send("line", isolation::files_closed() ? "closed" : "open");
            isolation::send("line", svg.find("<svg") != std::string::npos ? "drawn" : "not drawn");
        }, "done");
        return 0;
    });
    INFO(sent.died);
    CHECK(sent.rc == 0);
    CHECK(sent.probes == std::set<std::string>{"load opened", "open refused"});
    CHECK(sent.lines == std::vector<std::string>{"closed", "drawn", "done"});
}

// A `serve` page (cli/cmd_serve.cpp: a fresh worker per page, with the files kept) reads ahead
// what it needs and opens no file once rule code runs: the module bodies of every host it loads
// (the odds of both sides, the two games, the map's) and the script, on every path, are refused a
// file of their ruleset, while the page still computes whole: both sides' odds, both games with
// their journals stamped with each folder's hash (read before the close), and the map of the
// scenario the script names. Before, a page's worker kept its reads open while rule code ran (and
// once the odds closed them, the game could no longer hash its rulesets).
TEST_CASE("files closed: a serve page reads ahead what it needs and runs its rule code with no file open",
          "[isolation][attacks][landlock][serve]") {
    if (skipped_without_landlock()) return;
    const fs::path root = make_rulesets();
    const fs::path notes = root / "house" / "notes.txt";
    const fs::path script = root / "page.lua";
    test_helpers::write(script,
                        "print('open:' .. umpire.args.notes)\n"
                        "local bonus = umpire.data.scenario('ambush').bonus\n"
                        "return umpire.rules.shoot.hits(umpire.dice.d(6)) and umpire.dice.d(6) + bonus or 0\n");
    umpire::serve::PageRequest request;
    request.host = probing_options(notes);
    request.rulesets = {(root / "house").string()};
    request.compare = (root / "variant").string();
    request.script = script;
    const std::string house_hash = umpire::replay::ruleset_hash(root / "house");
    const std::string variant_hash = umpire::replay::ruleset_hash(root / "variant");
    const Sent sent = in_worker(root, [&] {
        send_outcome([&] {
            const auto page = umpire::serve::compute_page(request);
            isolation::send("line", isolation::files_closed() ? "closed" : "open");
            isolation::send("line", std::to_string(page["odds"]["sides"].size()) + " sides");
            isolation::send("line", page["game"]["journal"]["header"]["rulesets"].dump());
            isolation::send("line", page["compare_game"]["journal"]["header"]["rulesets"].dump());
            isolation::send("line", page["map"]["kind"].get<std::string>() + " " + page["map"]["scenario"].get<std::string>());
        }, "page computed");
        return 0;
    });
    INFO(sent.died);
    CHECK(sent.rc == 0);
    CHECK(sent.probes == std::set<std::string>{"load refused", "open refused"});
    REQUIRE(sent.lines.size() == 6);
    CHECK(sent.lines[0] == "closed");
    CHECK(sent.lines[1] == "2 sides");
    CHECK(sent.lines[2] == nlohmann::json({{"house", house_hash}}).dump());
    CHECK(sent.lines[3] == nlohmann::json({{"variant", variant_hash}}).dump());
    CHECK_THAT(sent.lines[4], Catch::StartsWith("hex ") && Catch::EndsWith("house/scenarios/ambush.yaml"));
    CHECK(sent.lines[5] == "page computed");
}
