#include "cli/Common.hpp"

#include <iostream>

namespace umpire::cli {
namespace fs = std::filesystem;

void add_common(CLI::App* app, Common& c) {
    app->add_option("--ruleset", c.rulesets,
                    "Ruleset to load (a name on the search path, or a folder holding ruleset.yaml), "
                    "or a folder of rulesets to add to the search path. Repeatable.")
        // One value per --ruleset, so `--ruleset asl SCRIPT` does not eat the script.
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    app->add_option("--seed", c.seed, "Seed of the game's dice (default 1: runs are reproducible)");
    app->add_flag("--explain", c.explain, "Explain every roll and modifier with its rule citation");
    app->add_flag("--json", c.json, "One JSON document on stdout instead of text");
    app->add_flag("--trusted", c.trusted,
                  "Keep the JIT on for rule code (fast; a runaway loop ends the process)");
    app->add_flag("--traceback", c.traceback, "Show a Lua traceback with script errors");
    app->add_option_function<double>(
           "--timeout", [&c](double seconds) { c.timeout = seconds; c.timeout_given = true; },
           "Seconds a script may run before it is stopped (0: no limit; default 10). Given to "
           "`odds`, it also bounds the whole run, exact enumeration and Monte Carlo alike");
}

RulesetArgs split_rulesets(const Common& c) {
    RulesetArgs out;
    for (const auto& r : c.rulesets) {
        const fs::path p(r);
        if (fs::is_directory(p) && !fs::is_regular_file(p / "ruleset.yaml")) out.search.push_back(p);
        else out.load.push_back(r);
    }
    return out;
}

HostOptions host_options(const Common& c) {
    HostOptions o;
    o.trusted = c.trusted;
    o.seed = c.seed;
    o.traceback = c.traceback;
    o.time_limit = c.timeout;
    o.search_path = split_rulesets(c).search;
    return o;
}

int guarded(const Common& common, const std::function<int()>& body) {
    try {
        return body();
    } catch (const ScriptError& e) {
        std::cerr << "umpire: " << e.what() << "\n";
        if (common.traceback && !e.traceback.empty()) std::cerr << e.traceback << "\n";
        return kScriptError;
    } catch (const std::exception& e) {
        std::cerr << "umpire: " << e.what() << "\n";
        return kScriptError;
    }
}

}  // namespace umpire::cli
