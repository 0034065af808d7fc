// umpire run SCRIPT | -e CODE: runs a script against the loaded rulesets; --explain prints the
// rule log afterwards, --json one JSON document, --journal FILE saves the journal for replay.
#include <fstream>

#include "bindings/GameLog.hpp"
#include "bindings/Replay.hpp"
#include "cli/Common.hpp"

namespace umpire::cli {

int cmd_run(const Common& common, const RunInputs& in) {
    return guarded(common, [&] {
        std::vector<std::string> captured;
        LuaHost host(host_options(common, &captured));
        const auto rulesets = split_rulesets(common);
        if (!rulesets.load.empty()) host.load_rulesets(rulesets.load);
        if (!in.state_in.empty()) host.load_state(in.state_in);
        // The header says everything replay needs: the script text itself (so a later edit of
        // the file is found, not silently replayed), the rulesets, the starting state.
        nlohmann::json inputs = {{"rulesets", common.rulesets},
                                 {"script", in.script},
                                 {"code", in.code.empty() ? LuaHost::read_file(in.script) : in.code},
                                 {"state", host.state_json()}};
        replay::stamp_header(host, common.seed, std::move(inputs));
        if (!in.code.empty()) host.run_string(in.code);
        else host.run_file(in.script);
        if (!in.state_out.empty()) host.save_state(in.state_out);
        if (!in.journal_out.empty()) {
            std::ofstream out(in.journal_out, std::ios::binary);
            out << host.extension<GameLog>().journal.dump() << "\n";
            if (!out) throw Error("cannot write the journal to " + in.journal_out);
        }
        return report_run(common, "run", host, captured);
    });
}

}  // namespace umpire::cli
