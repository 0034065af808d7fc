// umpire watch SCRIPT: run, then re-run on every change of the script or a loaded ruleset.
// Rulesets reload transactionally (a broken save keeps the last good rules); errors are printed
// and the watch goes on. The game state lives on across runs, like in a game being played.
// Isolated (the default), the whole loop runs in a worker process; the parent only waits. A
// worker that dies (killed at the wall-clock limit, a crash, a kernel limit) is reported, and a
// new one takes over with the game state of the last finished run and runs the script at the
// next change.
#include <iostream>

#include "bindings/GameLog.hpp"
#include "ruleset/Ruleset.hpp"
#include "app/Watcher.hpp"
#include "cli/Common.hpp"
#include "ruleset/Load.hpp"

namespace umpire::cli {

namespace {

// The watch loop. `state`: the game state to start from ("" for the rulesets' own); with
// `wait_first` the first run waits for a change (a worker taking over from one that died).
int watch_loop(const Common& common, const std::string& script, const std::string& state, bool wait_first) {
    return guarded(common, [&] {
        LuaHost host(host_options(common));
        const auto rulesets = split_rulesets(common);
        Watcher watcher;
        watcher.watch_file(script);
        for (const auto& name : rulesets.load)
            for (const auto& m : ruleset::chain(ruleset::find(name, ruleset::search_path(host)), ruleset::search_path(host)))
                watcher.watch_tree(m.dir);

        bool rules_changed = true;
        bool restored = state.empty();
        if (wait_first) {
            std::cerr << "-- watching " << script << " (Ctrl-C to stop)\n";
            while (watcher.wait(std::chrono::hours(1)).empty()) {
            }
        }
        for (;;) {
            // Each run (its reload included) gets --cpu seconds of CPU time of its own, so a long
            // session does not run out of a budget its earlier runs used up.
            isolation::new_cpu_budget();
            // Every run starts from freshly loaded rules, even when only the script changed: a
            // run that wrote into umpire.data (or anything else of the loaded rules) must not leak
            // into the next. Only umpire.state carries over, by design.
            if (!rulesets.load.empty()) {
                // Any error, not only the rules' own: files edited while the reload reads them can
                // fail a file system call (a file renamed away between the check and its message,
                // a folder made unreadable), and that ended the watch. A load is one generation,
                // so whatever failed, the last good rules are still the committed ones.
                try {
                    ruleset::load(host, rulesets.load);
                } catch (const std::exception& e) {
                    if (rules_changed)
                        std::cerr << "umpire: " << e.what() << "\n  (the previous rules stay loaded)\n";
                }
            }
            try {
                if (!restored) {
                    host.set_state_json(state);
                    restored = true;
                }
                host.extension<GameLog>().journal = bus::Journal();
                host.run_file(script);
                if (common.explain) std::cout << "\n" << host.extension<GameLog>().journal.explain() << std::flush;
            } catch (const ScriptError& e) {
                std::cerr << "umpire: " << e.what() << "\n";
            }
            std::cout << std::flush;
            // Charged while it goes to the parent (host/LuaHost.hpp, KeptState). A state that cannot
            // be written (past the memory cap as JSON, or not plain data) is this run's error, like
            // any other: the watch goes on with the state as it stands in this host, and the parent
            // keeps the last one handed on, for a worker that takes over.
            try {
                isolation::send("state", LuaHost::KeptState(host, "kept to hand it to the next run").text());
            } catch (const Error& e) {
                std::cerr << "umpire: " << e.what()
                          << "\n  (the game state was not handed on; the watch goes on with it as it stands)\n";
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

}  // namespace

int cmd_watch(const Common& common, const std::string& script) {
    if (int rc = refuse_output_flags(common, "watch", true)) return rc;
    if (!isolates(common)) return watch_loop(common, script, "", false);
    std::string state;  // after the last finished run, as the worker reported it
    bool wait_first = false;
    for (;;) {
        try {
            const auto keep_state = [&state](const std::string& topic, const std::string& payload) {
                if (topic == "state") state = payload;
            };
            isolation::Limits limits = isolation_limits(common, {script});
            limits.cpu_per_run = true;
            return isolation::run(limits,
                                  [&] { return watch_loop(common, script, state, wait_first); }, {}, keep_state);
        } catch (const isolation::WorkerDied& e) {
            std::cerr << "umpire: " << e.what()
                      << "\n  (the watch goes on with the game state of the last finished run; the script runs "
                         "again at the next change)\n";
            wait_first = true;
        } catch (const std::exception& e) {
            std::cerr << "umpire: " << e.what() << "\n";
            return kScriptError;
        }
    }
}

}  // namespace umpire::cli
