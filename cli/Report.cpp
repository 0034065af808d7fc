// ENTRY POINT for the lead: --explain (the journal's citations, one line per roll/modifier) and
// --json (one JSON document per command). Both need the journal of core/bus; until it is wired
// through the host, asking for them is an error -- never a made-up report.
#include <iostream>

#include "cli/Common.hpp"

namespace umpire::cli {

int refuse_unwired_output(const Common& common, const char* command) {
    const char* flag = common.explain ? "--explain" : common.json ? "--json" : nullptr;
    if (!flag) return kOk;
    std::cerr << "umpire " << command << ": " << flag
              << " is not implemented yet (it needs the bus journal; see cli/Report.cpp)\n";
    return kScriptError;
}

}  // namespace umpire::cli
