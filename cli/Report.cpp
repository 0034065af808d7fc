// How a finished command reports: human text by default, the rule log with --explain, one JSON
// document on stdout with --json (printed lines are then captured into it, so stdout stays JSON).
#include <iostream>

#include "bindings/GameLog.hpp"
#include "cli/Common.hpp"
#include "core/bus/Hash.hpp"

namespace umpire::cli {

HostOptions host_options(const Common& common, std::vector<std::string>* captured) {
    HostOptions o = host_options(common);
    if (common.json && captured)
        o.print = [captured](const std::string& line) { captured->push_back(line); };
    return o;
}

int report_run(const Common& common, const char* command, LuaHost& host,
               const std::vector<std::string>& captured, const nlohmann::json& returned) {
    auto& journal = host.extension<GameLog>().journal;
    if (common.json) {
        nlohmann::json doc = {{"command", command},
                              {"output", captured},
                              {"returned", returned},
                              {"journal", journal.to_json()},
                              {"journal_hash", journal.hash_hex()},
                              {"state_hash", bus::hash_hex(host.state_hash())}};
        std::cout << doc.dump(2) << "\n";
    } else if (common.explain) {
        std::cout << "\n" << journal.explain();
        if (journal.empty()) std::cout << "(nothing was rolled, cited or recorded)\n";
    }
    return kOk;
}

int refuse_output_flags(const Common& common, const char* command, bool explain_ok) {
    const char* flag = common.json ? "--json" : (!explain_ok && common.explain) ? "--explain" : nullptr;
    if (!flag) return kOk;
    std::cerr << "umpire " << command << ": " << flag << " is not available for this command "
              << "(use it with run, roll or odds)\n";
    return kUsage;
}

}  // namespace umpire::cli
