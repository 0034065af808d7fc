// ENTRY POINT for the lead: umpire replay JOURNAL (re-run a saved journal and check that every
// roll, modifier and result comes out the same). Not wired yet: a clear error.
#include <iostream>

#include "cli/Common.hpp"

namespace umpire::cli {

int cmd_replay(const Common&, const std::string& journal) {
    std::cerr << "umpire replay " << journal
              << ": not implemented yet (needs the bus journal format; see cli/cmd_replay.cpp)\n";
    return kScriptError;
}

}  // namespace umpire::cli
