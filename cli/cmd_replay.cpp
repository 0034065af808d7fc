// umpire replay JOURNAL: runs a recorded game again (same engine, rulesets, seed, script and
// starting state) and checks the new journal is the same, byte for byte; if not, says where the
// two first differ.
#include <iostream>

#include "bindings/GameLog.hpp"
#include "app/Replay.hpp"
#include "cli/Common.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/Ruleset.hpp"

#include <filesystem>

namespace umpire::cli {
namespace fs = std::filesystem;

int cmd_replay(const Common& common, const std::string& journal_file) {
    // A journal is untrusted input: isolated even with --trusted (its code runs sandboxed).
    Common untrusted = common;
    untrusted.trusted = false;
    return isolated(untrusted, [&] {
        const bus::Journal recorded = [&] {
            try {
                // Untrusted, and parsed into a JSON tree of about ten times its size.
                return bus::Journal::load(LuaHost::read_file(journal_file, std::size_t{64} << 20, "a journal"));
            } catch (const ParseError& e) {
                throw Error(journal_file + ": " + e.what());  // name the file
            }
        }();
        const auto& header = recorded.header();
        const auto& inputs = header.inputs;
        if (!inputs.contains("code"))
            throw Error(journal_file + ": the journal header has no recorded script (was it made by `umpire run --journal`?)");
        Common replay_common = common;
        replay_common.seed = header.seed;
        replay_common.json = false;
        replay_common.explain = false;
        replay_common.trusted = false;  // a journal is untrusted input: its code runs sandboxed
        replay_common.set.clear();  // the recorded umpire.args, not this command's
        for (const auto& a : inputs.value("args", nlohmann::json::array()))
            if (a.is_string()) replay_common.set.push_back(a.get<std::string>());
        std::vector<std::string> ignored;
        HostOptions options = host_options(replay_common);
        options.print = [&ignored](const std::string& line) { ignored.push_back(line); };
        // The journal names the rulesets it was recorded with; it never chooses files. Each is
        // looked up by name on this command's search path (its own --ruleset flags and the
        // shipped rulesets): a recorded folder "rulesets/asl" is the ruleset "asl". Entries that
        // were search folders when recorded (no ruleset hash in the header) are skipped.
        LuaHost host(options);
        std::vector<std::string> dirs;
        if (inputs.contains("rulesets") && !inputs["rulesets"].is_array())
            throw Error(journal_file + ": inputs.rulesets must be a list of ruleset names");
        for (const auto& entry : inputs.value("rulesets", nlohmann::json::array())) {
            if (!entry.is_string()) throw Error(journal_file + ": inputs.rulesets holds a " + std::string(entry.type_name()) + ", not a name");
            const fs::path recorded_path = fs::path(entry.get<std::string>()).lexically_normal();
            std::string name = recorded_path.filename().string();
            if (name.empty()) name = recorded_path.parent_path().filename().string();  // "rulesets/asl/"
            if (!header.rulesets.contains(name)) continue;
            const fs::path dir = ruleset::find_by_name(name, ruleset::search_path(host));
            std::cerr << "umpire: replay loads ruleset '" << name << "' from " << LuaHost::display_path(dir) << "\n";
            dirs.push_back(dir.string());
        }
        replay::play(host, header.seed, dirs, inputs);
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
    }, {}, {journal_file}, FileAccess::none);
}

}  // namespace umpire::cli
