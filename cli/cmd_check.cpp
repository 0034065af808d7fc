// umpire check [RULESET...]: one command before publishing a ruleset: its manifest, data and
// scenarios against their JSON Schemas, the whole ruleset loading in the sandbox (with every
// module's validate(data)), and its spec tests (app/Checker.hpp). Every problem is printed
// with its file:line:col; exit 1 if there is any.
#include <iostream>
#include <sstream>

#include "app/Checker.hpp"
#include "ruleset/Ruleset.hpp"
#include "cli/Common.hpp"
#include "ruleset/Load.hpp"

namespace umpire::cli {

int cmd_check(const Common& common, const std::vector<std::string>& names, bool verbose) {
    if (int rc = refuse_output_flags(common, "check", false)) return rc;
    return isolated(common, [&] {
        const HostOptions options = host_options(common);
        std::vector<std::string> wanted = names;
        for (const auto& r : split_rulesets(common).load) wanted.push_back(r);
        if (wanted.empty()) {
            LuaHost probe(options);
            for (const auto& dir : ruleset::all(ruleset::search_path(probe))) wanted.push_back(LuaHost::display_path(dir));
        }
        int problems = 0;
        // (every file read before any rule code runs, then the worker's files closed: check_rulesets)
        std::vector<std::string> specs;
        const std::vector<CheckResult> results = check_rulesets(wanted, options, specs);
        for (std::size_t i = 0; i < wanted.size(); ++i) {
            const std::string& name = wanted[i];
            const CheckResult& r = results[i];
            if (verbose) std::cout << specs[i];
            for (const auto& p : r.problems) std::cout << p << "\n";
            // A file without a schema is shown always: nothing checks it, and its author should know.
            for (const auto& n : r.notes) std::cout << "note: " << n << "\n";
            // "match their schemas" only when they do: a failing ruleset reports what was checked.
            if (r.problems.empty())
                std::cout << "ok   " << name << ": " << r.files_validated << " files match their schemas, "
                          << r.specs_passed << " specs passed, 0 failed, 0 problems\n";
            else
                std::cout << "FAIL " << name << ": " << r.problems.size() << " problems (" << r.files_validated
                          << " files checked against their schemas, " << r.specs_passed << " specs passed, "
                          << r.specs_failed << " failed)\n";
            problems += static_cast<int>(r.problems.size());
        }
        std::cout << std::flush;
        return problems ? kScriptError : kOk;
    }, {}, names, FileAccess::none_reloading);  // a ruleset named by its folder is read in the worker (as `--ruleset DIR` is)
}

}  // namespace umpire::cli
