// Every file a load reads is read through one descriptor checked to lead where the manifest's
// check found it (ruleset/LoadCache.hpp, read_source; host/RegularFile.hpp): the data files and
// modules since session 33, and now the scenarios, the manifest itself and the first read of each
// file in a worker that keeps its files (host/FileSnapshot.hpp). The check and the read are two
// steps on a path, so a file swapped between them for a symlink out of the ruleset folder was
// read as the ruleset's own, and a FIFO blocked the read. The swap is made between the two steps
// by giving the read what the check found before the swap; a thread swapping a scenario while
// the rules load again and again checks the whole load, where the steps cannot be parted.
#include <catch2/catch.hpp>

#include <atomic>
#include <functional>
#include <sstream>
#include <string>
#include <thread>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/SpecRunner.hpp"
#include "host/FileSnapshot.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/LoadCache.hpp"
#include "ruleset/Ruleset.hpp"
#include "ruleset/Scenarios.hpp"
#include "ruleset/YamlLoader.hpp"
#include "tests/support/helpers.hpp"

using test_helpers::TestHost;
using umpire::ruleset::LoadCache;
namespace fs = std::filesystem;

namespace {

// A ruleset with one scenario and a manifest, and a folder outside it holding look-alikes.
struct Swappable {
    fs::path root, dir, outside, scenario, manifest;
    explicit Swappable(const std::string& tag) {
        root = test_helpers::scratch_root() / ("checked-reads-" + tag);
        fs::remove_all(root);
        dir = root / "house";
        outside = root / "outside";
        fs::create_directories(dir / "scenarios");
        fs::create_directories(outside);
        manifest = dir / "ruleset.yaml";
        scenario = dir / "scenarios/ambush.yaml";
        test_helpers::write(manifest, "name: house\nversion: '1'\n");
        test_helpers::write(scenario, "name: inside\n");
        test_helpers::write(outside / "ambush.yaml", "name: outside\n");
        test_helpers::write(outside / "ruleset.yaml", "name: outside\nversion: '1'\n");
    }
    // Replaces `file` with a symlink to its look-alike outside.
    void swap_out(const fs::path& file) const {
        fs::remove(file);
        fs::create_symlink(outside / file.filename(), file);
    }
    // A thread that swaps `file` for a symlink to its look-alike outside and back (a fresh file of
    // `inside`), each by an atomic rename, until `stop`.
    std::thread swap_to_and_fro(const fs::path& file, const std::string& inside, const std::atomic<bool>& stop) const {
        return std::thread([this, file, inside, &stop] {
            const fs::path link = file.parent_path() / ".link", copy = file.parent_path() / ".copy";
            for (int i = 0; !stop; ++i) {
                std::error_code ec;
                if (i % 2) {
                    fs::create_symlink(outside / file.filename(), link, ec);
                    fs::rename(link, file, ec);
                } else {
                    test_helpers::write(copy, inside);
                    fs::rename(copy, file, ec);
                }
            }
        });
    }
    void swap_fifo(const fs::path& file) const {
        fs::remove(file);
        REQUIRE(::mkfifo(file.c_str(), 0600) == 0);
    }
};

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

// Runs body in a child process (file keeping is turned on for a whole process, and never off);
// returns its result as the child's exit code (5: it threw; -1: it did not exit).
int in_child(const std::function<int()>& body) {
    const pid_t child = ::fork();
    if (child == 0) {
        int code = 5;
        try {
            code = body();
        } catch (...) {
        }
        ::_exit(code);
    }
    int status = 0;
    if (child < 0 || ::waitpid(child, &status, 0) != child || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

const auto read_yaml = [](const std::string& display) {
    return [display](const fs::path& f) { return umpire::yaml::read_data_file(f, display); };
};

}  // namespace

TEST_CASE("a scenario swapped after the check is refused, not read", "[reload][checked]") {
    const Swappable s("scenario");
    std::error_code ec;
    const auto [folder, files] = umpire::ruleset::scenario_folder(s.dir, fs::canonical(s.dir).native(), fs::current_path().native());
    REQUIRE(files.size() == 1);
    CHECK(files[0].real == fs::canonical(s.scenario).native());  // what the read checks against
    TestHost t;
    auto& cache = t.host.extension<LoadCache>();
    const auto read = [&] { cache.data(files[0].path, "house/scenarios/ambush.yaml", t.host.state(), std::nullopt, files[0].real); };
    SECTION("for a symlink out of the ruleset") {
        s.swap_out(s.scenario);
        const std::string error = error_of(read);
        CHECK(error.find("house/scenarios/ambush.yaml: changed while the rules were read: it now leads to") != std::string::npos);
        CHECK(error.find("outside/ambush.yaml") != std::string::npos);
    }
    SECTION("for a FIFO") {
        s.swap_fifo(s.scenario);
        CHECK(error_of(read).find("changed while the rules were read: it is no longer a regular file (a FIFO)") != std::string::npos);
    }
}

TEST_CASE("a manifest swapped after the check is refused, not read", "[reload][checked]") {
    const Swappable s("manifest");
    const std::string checked = fs::canonical(s.manifest).native();
    TestHost t;
    auto& cache = t.host.extension<LoadCache>();
    const auto parse = [](const std::string& text) { return YAML::Load(text); };
    SECTION("through the load cache") {
        s.swap_out(s.manifest);
        const std::string error = error_of([&] { cache.manifest(s.manifest, "house/ruleset.yaml", parse, std::nullopt, checked); });
        CHECK(error.find("house/ruleset.yaml: changed while the rules were read: it now leads to") != std::string::npos);
        CHECK(error.find("outside/ruleset.yaml") != std::string::npos);
    }
    SECTION("without one (a read-ahead, a check)") {
        s.swap_fifo(s.manifest);
        const std::string error = error_of([&] {
            umpire::ruleset::read_source(s.manifest, 1 << 20, read_yaml("house/ruleset.yaml"), checked, "house/ruleset.yaml");
        });
        CHECK(error.find("house/ruleset.yaml: changed while the rules were read: it is no longer a regular file (a FIFO)") !=
              std::string::npos);
    }
}

// In a worker that keeps its files, every read went by path (the kept copy answering the later
// ones), so the first one, the one kept, was never checked. Run in a child process: keeping is
// turned on for the whole process, and never off.
TEST_CASE("in a worker that keeps its files, the first read of a file is checked, then kept", "[reload][checked]") {
    const Swappable s("snapshot");
    const std::string checked = fs::canonical(s.scenario).native();
    s.swap_out(s.scenario);
    const int code = in_child([&] {
        umpire::file_snapshot::enable();
        const umpire::file_snapshot::Recording recording;
        const std::string error = error_of([&] {
            umpire::ruleset::read_source(s.scenario, 1 << 20, read_yaml("ambush.yaml"), checked, "ambush.yaml");
        });
        if (error.find("ambush.yaml: changed while the rules were read: it now leads to") == std::string::npos) return 2;
        if (umpire::file_snapshot::find(s.scenario)) return 3;  // nothing refused is kept
        // A file that is where it was checked is read and kept.
        const std::string good = fs::canonical(s.manifest).native();
        const auto [bytes, stamp] = umpire::ruleset::read_source(s.manifest, 1 << 20, read_yaml("m"), good, "m");
        if (bytes.find("house") == std::string::npos || !umpire::file_snapshot::find(s.manifest)) return 4;
        return 0;
    });
    CHECK(code == 0);  // 2: the swapped file was read; 3: it was kept; 4: a good one was not
}

// The whole load, where the check and the read cannot be parted: a thread swaps the scenario for
// a symlink out and back while the rules are loaded again and again. A load reads the scenario
// inside or refuses it; it never reads the one outside. (Before, about one load in 75 read it.)
TEST_CASE("a scenario swapped to and fro while the rules load is never read from outside", "[reload][checked]") {
    const Swappable s("race");
    // Scenarios read before the swapped one (files are read in name order, after all were
    // checked), so that the time between its check and its read is worth a few swaps.
    for (int i = 0; i < 20; ++i) {
        std::string text;
        for (int k = 0; k < 40; ++k) text += "unit" + std::to_string(k) + ": {name: squad, fp: 4, range: 6, morale: 7}\n";
        test_helpers::write(s.dir / ("scenarios/a" + std::to_string(10 + i) + ".yaml"), text);
    }
    std::atomic<bool> stop{false};
    std::thread swapper = s.swap_to_and_fro(s.scenario, "name: inside\n", stop);
    TestHost t;
    int loaded = 0, refused = 0, outside = 0, none = 0;
    for (int i = 0; i < 1000; ++i) {
        try {
            umpire::ruleset::load(t.host, {s.dir.string()});
            const std::string name = t.eval("(function() local ok, a = pcall(umpire.data.scenario, 'ambush') return ok and a.name or 'none' end)()");
            if (name == "outside") ++outside;
            else if (name == "inside") ++loaded;
            else ++none;
        } catch (const std::exception& e) {
            ++refused;
        }
    }
    stop = true;
    swapper.join();
    INFO(loaded << " read inside, " << none << " refused at the check, " << refused << " loads refused");
    CHECK(outside == 0);
    CHECK(loaded > 0);
}

// Spec files (a manifest's `tests:`, or tests/*.lua) were checked inside the ruleset folder with
// the other files, but read by their path when run (app/SpecRunner.cpp) and in `umpire test`'s
// read-ahead (ruleset/Load.cpp), so a spec swapped for a symlink out of the folder after the
// check ran the file outside as the ruleset's spec, and a FIFO blocked `umpire test` for ever
// (session 35). Both now read through ruleset::read_spec_file, checked against
// Manifest::tests_real.
namespace {
struct WithSpec : Swappable {
    fs::path spec;
    explicit WithSpec(const std::string& tag) : Swappable(tag) {
        fs::create_directories(dir / "tests");
        spec = dir / "tests/house_spec.lua";
        test_helpers::write(spec, "test('inside', function() end)\n");
        test_helpers::write(outside / "house_spec.lua", "test('outside', function() end)\n");
    }
};
}  // namespace

TEST_CASE("a spec file swapped after the check is refused, not read", "[checked]") {
    const WithSpec s("spec");
    const auto manifest = umpire::ruleset::read_manifest(s.dir);
    REQUIRE(manifest.tests.size() == 1);
    REQUIRE(manifest.tests_real.size() == 1);
    CHECK(manifest.tests_real[0] == fs::canonical(s.spec).native());
    TestHost t;
    umpire::ruleset::load(t.host, {s.dir.string()});
    std::ostringstream out;
    SECTION("for a symlink out of the ruleset") {
        s.swap_out(s.spec);
        const auto result = umpire::run_spec_file(t.host, manifest.tests[0], manifest.tests_real[0], out);
        CHECK(result.passed == 0);
        CHECK(result.failed == 1);
        CHECK(out.str().find("ok ") == std::string::npos);
        INFO(out.str());
        CHECK(out.str().find("tests/house_spec.lua: changed while the rules were read: it now leads to") != std::string::npos);
    }
    SECTION("for a FIFO") {
        s.swap_fifo(s.spec);
        const auto result = umpire::run_spec_file(t.host, manifest.tests[0], manifest.tests_real[0], out);
        CHECK(result.failed == 1);
        CHECK(out.str().find("it is no longer a regular file (a FIFO)") != std::string::npos);
    }
    SECTION("through the read-ahead of `umpire test`, in a worker that keeps its files") {
        s.swap_out(s.spec);
        const int code = in_child([&] {
            umpire::file_snapshot::enable();
            const std::string error = error_of([&] {
                umpire::ruleset::read_spec_file(manifest.tests[0], manifest.tests_real[0], "house_spec.lua");
            });
            if (error.find("house_spec.lua: changed while the rules were read: it now leads to") == std::string::npos) return 2;
            if (umpire::file_snapshot::find(manifest.tests[0])) return 3;  // nothing refused is kept
            return 0;
        });
        CHECK(code == 0);  // 2: the swapped file was read; 3: it was kept
    }
}

// The whole of `umpire test`'s sequence for one ruleset (the manifest read, each spec run), where
// the check and the read cannot be parted: a thread swaps the spec for a symlink out and back.
// A run finds the spec inside or refuses it; it never runs the one outside.
TEST_CASE("a spec file swapped to and fro while the specs run is never read from outside", "[checked]") {
    const WithSpec s("spec-race");
    TestHost t;
    umpire::ruleset::load(t.host, {s.dir.string()});  // (before the swaps: a spec outside fails a load)
    std::atomic<bool> stop{false};
    std::thread swapper = s.swap_to_and_fro(s.spec, "test('inside', function() end)\n", stop);
    int inside = 0, outside = 0, refused = 0;
    for (int i = 0; i < 400; ++i) {
        try {
            const auto manifest = umpire::ruleset::read_manifest(s.dir);
            for (std::size_t k = 0; k < manifest.tests.size(); ++k) {
                std::ostringstream out;
                umpire::run_spec_file(t.host, manifest.tests[k], manifest.tests_real[k], out);
                if (out.str().find("ok   ") != std::string::npos && out.str().find(": outside") != std::string::npos) ++outside;
                else if (out.str().find(": inside") != std::string::npos) ++inside;
                else ++refused;
            }
        } catch (const std::exception&) {
            ++refused;  // refused at the check (the spec was outside then)
        }
    }
    stop = true;
    swapper.join();
    INFO(inside << " ran inside, " << refused << " refused");
    CHECK(outside == 0);
    CHECK(inside > 0);
}
