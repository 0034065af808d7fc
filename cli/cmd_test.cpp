// umpire test [RULESET...]: every tests/*.lua of each ruleset, in the sandbox, each ruleset in
// its own host (so one ruleset's state cannot leak into another's tests).
#include <iostream>

#include "ruleset/Ruleset.hpp"
#include "app/SpecRunner.hpp"
#include "cli/Common.hpp"
#include "host/FileSnapshot.hpp"
#include "ruleset/Load.hpp"

namespace umpire::cli {

int cmd_test(const Common& common, const std::vector<std::string>& names) {
    if (int rc = refuse_output_flags(common, "test", false)) return rc;
    return isolated(common, [&] {
        const HostOptions options = host_options(common);
        std::vector<std::string> wanted = names;
        for (const auto& r : split_rulesets(common).load) wanted.push_back(r);
        std::vector<std::filesystem::path> dirs;
        {
            LuaHost probe(options);
            if (wanted.empty()) dirs = ruleset::all(ruleset::search_path(probe));
            for (const auto& n : wanted) dirs.push_back(ruleset::find(n, ruleset::search_path(probe)));
        }
        // In the worker, every file the loads and the spec runs will read is read now and kept in
        // memory (host/FileSnapshot.hpp), and then no file opens at all, before any rule code runs:
        // each ruleset loads from memory, and its module bodies, `validate` and its specs run with
        // the worker's files closed (docs/sandbox.md, "No file opened after loading").
        std::vector<std::string> names;
        for (const auto& dir : dirs) names.push_back(dir.string());
        file_snapshot::limit(options.memory_limit);  // each host carries them all: no more than its cap
        ruleset::read_ahead(names, ruleset::search_path(options.search_path), true);
        isolation::close_files();
        SpecResult total;
        for (const auto& dir : dirs) {
            LuaHost host(options);
            try {
                ruleset::load(host, {dir.string()});
            } catch (const ScriptError& e) {
                ++total.failed;
                std::cout << "FAIL " << LuaHost::display_path(dir) << " (does not load)\n     "
                          << e.what() << "\n";
                continue;
            }
            const ruleset::Manifest manifest = ruleset::read_manifest(dir);
            for (std::size_t i = 0; i < manifest.tests.size(); ++i) {
                const SpecResult r = run_spec_file(host, manifest.tests[i], manifest.tests_real[i], std::cout);
                total.passed += r.passed;
                total.failed += r.failed;
            }
        }
        std::cout << total.passed << " passed, " << total.failed << " failed" << std::endl;
        return total.failed ? kScriptError : kOk;
    }, {}, names, FileAccess::none_reloading);  // a ruleset named by its folder is read in the worker, as for `check`
}

}  // namespace umpire::cli
