// ENTRY POINT for the lead: umpire odds EXPR|SCRIPT (exact enumeration, Monte Carlo past a
// budget, --compare). Not wired yet: a clear error, never a made-up result.
#include <iostream>

#include "cli/Common.hpp"

namespace umpire::cli {

int cmd_odds(const Common&, const std::string& expr_or_script) {
    std::cerr << "umpire odds " << expr_or_script
              << ": not implemented yet (the odds engine is not wired to the command; see cli/cmd_odds.cpp)\n";
    return kScriptError;
}

}  // namespace umpire::cli
