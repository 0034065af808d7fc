// umpire replay JOURNAL: runs a recorded game again (same engine, rulesets, seed, script and
// starting state) and checks the new journal is the same, byte for byte; if not, says where the
// two first differ.
#include <iostream>

#include "bindings/GameLog.hpp"
#include "app/Replay.hpp"
#include "cli/Common.hpp"

namespace umpire::cli {

int cmd_replay(const Common& common, const std::string& journal_file) {
    return guarded(common, [&] {
        const bus::Journal recorded = bus::Journal::load(LuaHost::read_file(journal_file));
        const auto& header = recorded.header();
        const auto& inputs = header.inputs;
        if (!inputs.contains("code"))
            throw Error(journal_file + ": the journal header has no recorded script (was it made by `umpire run --journal`?)");
        Common replay_common = common;
        replay_common.seed = header.seed;
        replay_common.rulesets = inputs.value("rulesets", std::vector<std::string>{});
        replay_common.json = false;
        replay_common.explain = false;
        std::vector<std::string> ignored;
        HostOptions options = host_options(replay_common);
        options.print = [&ignored](const std::string& line) { ignored.push_back(line); };
        LuaHost host(options);
        replay::play(host, header.seed, split_rulesets(replay_common).load, inputs);
        const auto& replayed = host.extension<GameLog>().journal;
        const auto divergence = replay::compare(recorded, replayed);
        if (common.json) {
            nlohmann::json doc = {{"command", "replay"},
                                  {"identical", !divergence},
                                  {"entries", replayed.size()}};
            if (divergence)
                doc["divergence"] = {{"index", divergence->index}, {"path", divergence->path},
                                     {"expected", divergence->expected},
                                     {"actual", divergence->actual},
                                     {"message", divergence->message}};
            std::cout << doc.dump(2) << "\n";
        } else if (divergence) {
            std::cout << "replay diverged: " << divergence->message << "\n";
        } else {
            std::cout << "replay identical: " << replayed.size() << " journal entries, hash "
                      << replayed.hash_hex() << "\n";
        }
        return divergence ? kScriptError : kOk;
    });
}

}  // namespace umpire::cli
