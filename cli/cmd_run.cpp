// umpire run SCRIPT | -e CODE: runs a script against the loaded rulesets; --explain prints the
// rule log afterwards, --json one JSON document, --journal FILE saves the journal for replay.
#include <iostream>

#include "bindings/GameLog.hpp"
#include "app/Replay.hpp"
#include "cli/Common.hpp"

namespace umpire::cli {

int cmd_run(const Common& common, const RunInputs& in) {
    std::vector<std::filesystem::path> outputs;
    for (const auto& file : {in.state_out, in.journal_out})
        if (!file.empty()) outputs.emplace_back(file);
    return isolated(common, [&] {
        std::vector<std::string> captured;
        LuaHost host(host_options(common, &captured));
        // The inputs are what replay needs: the script text itself (so a later edit of the file
        // is found, not silently replayed), the rulesets, and the starting state (play() fills
        // in the state the rulesets leave when no --state file is given).
        nlohmann::json inputs = {{"rulesets", common.rulesets},
                                 {"script", in.script},
                                 {"args", common.set},
                                 {"code", in.code.empty() ? LuaHost::read_file(in.script) : in.code},
                                 {"state", in.state_in.empty() ? nlohmann::json() : nlohmann::json(LuaHost::read_file(in.state_in))}};
        std::string printed;  // what the script returned, as a REPL prints it (replay::play)
        const nlohmann::json results =
            replay::play(host, common.seed, split_rulesets(common).load, std::move(inputs), common.json ? nullptr : &printed);
        // Through the parent when isolated: the worker may not open a file for writing.
        // The state text is charged while it goes out (host/LuaHost.hpp, KeptState), uncopied.
        if (!in.state_out.empty())
            isolation::write_file(in.state_out, LuaHost::KeptState(host, "kept to write --save-state").text(), "\n");
        if (!in.journal_out.empty()) isolation::write_file(in.journal_out, host.extension<GameLog>().journal.dump() + "\n");
        // What the script returned is printed (`run -e 'return x'`), as a REPL would: strings as
        // they are, numbers as Lua spells them, other values as JSON, tab-separated; under --json
        // it is the "returned" array.
        if (!common.json && !results.empty()) std::cout << printed << "\n";
        return report_run(common, "run", host, captured, results);
    }, outputs, {in.script, in.state_in}, FileAccess::none);
}

}  // namespace umpire::cli
