// umpire watch SCRIPT: run, then re-run on every change of the script or a loaded ruleset.
// Rulesets reload transactionally (a broken save keeps the last good rules); errors are printed
// and the watch goes on. The game state lives on across runs, like in a game being played.
#include <iostream>

#include "bindings/GameLog.hpp"
#include "ruleset/Ruleset.hpp"
#include "app/Watcher.hpp"
#include "cli/Common.hpp"
#include "ruleset/Load.hpp"

namespace umpire::cli {

int cmd_watch(const Common& common, const std::string& script) {
    if (int rc = refuse_output_flags(common, "watch", true)) return rc;
    return guarded(common, [&] {
        LuaHost host(host_options(common));
        const auto rulesets = split_rulesets(common);
        Watcher watcher;
        watcher.watch_file(script);
        for (const auto& name : rulesets.load)
            for (const auto& m : ruleset::chain(ruleset::find(name, ruleset::search_path(host)), ruleset::search_path(host)))
                watcher.watch_tree(m.dir);

        bool rules_changed = true;
        for (;;) {
            // Every run starts from freshly loaded rules, even when only the script changed: a
            // run that wrote into umpire.data (or anything else of the loaded rules) must not leak
            // into the next. Only umpire.state carries over, by design.
            if (!rulesets.load.empty()) {
                try {
                    ruleset::load(host, rulesets.load);
                } catch (const ScriptError& e) {
                    if (rules_changed)
                        std::cerr << "umpire: " << e.what() << "\n  (the previous rules stay loaded)\n";
                }
            }
            try {
                host.extension<GameLog>().journal = bus::Journal();
                host.run_file(script);
                if (common.explain) std::cout << "\n" << host.extension<GameLog>().journal.explain() << std::flush;
            } catch (const ScriptError& e) {
                std::cerr << "umpire: " << e.what() << "\n";
            }
            std::cerr << "-- watching " << script << " (Ctrl-C to stop)\n";
            std::vector<std::filesystem::path> changed;
            while ((changed = watcher.wait(std::chrono::hours(1))).empty()) {
            }
            rules_changed = false;
            for (const auto& p : changed)
                if (std::filesystem::absolute(p) != std::filesystem::absolute(script)) rules_changed = true;
        }
        return kOk;
    });
}

}  // namespace umpire::cli
