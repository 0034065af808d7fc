// `umpire serve`: what its page shows for one state of the files, computed in one function
// (compute_page) from a request, as one JSON document. The function builds every Lua host it
// needs from scratch and returns plain data, so it can run anywhere (in a worker process, once
// untrusted runs are isolated) and a failure leaves nothing half-changed: the live session
// (app/ServeSession.hpp) keeps the last document that computed whole.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/odds/Odds.hpp"
#include "host/LuaHost.hpp"

namespace umpire::serve {

struct PageRequest {
    HostOptions host;                   // the sandbox and limits of the command line (--trusted, --timeout...)
    std::vector<std::string> rulesets;  // loaded for the odds, the game and the map
    std::string compare;                // --compare: the odds again under this ruleset ("" none)
    std::filesystem::path script;       // the rule script: its odds, and one game of it
    std::string scenario;               // the map: a file or name ("" the one the script names)
    std::vector<std::string> set;       // --set name=value as typed (host.args holds them parsed):
                                        //   the game's journal records them for `umpire replay`
    odds::OddsOptions odds;             // budget and Monte Carlo options, as for `umpire odds`
};

// The page's data:
//   {"script", "rulesets", "compare", "seed",
//    "odds": the report of `umpire odds --json` (docs/odds-report.md; one side, or two under --compare),
//    "game": {"returned", "output", "journal", "journal_hash", "lines", "citations"} (one game played with
//            host.seed, as `umpire run --seed N --json` plays it; "citations": every section the
//            log cites, in order of first appearance; "lines": each entry's --explain line),
//    "compare_game": the same under the --compare ruleset, with the same seed (null without --compare),
//    "map": {"scenario", "svg", "kind": "hex"|"table"} or null (the script names no scenario)}.
// Throws ScriptError (file and line) or Error, as the command line would.
nlohmann::json compute_page(const PageRequest& request);

// The scenario a script plays: the name in its first umpire.data.scenario("NAME") call, if any.
std::optional<std::string> scenario_named_in(const std::string& script_text);

// Where a rule section is cited in the rules of the rulesets (each rules/*.lua line that names it
// in quotes, as umpire.cite("A9.22", ...) does): [{"file", "line", "text"}], files in chain order.
nlohmann::json citing_lines(const std::string& section, const std::vector<std::filesystem::path>& ruleset_dirs);

// The paragraph of a rules text that starts the section ("A9.22" is looked up as the line that
// begins "9.22 "), up to the next numbered section; "" when the text has no such line.
std::string section_text(const std::string& rules_text, const std::string& section);

}  // namespace umpire::serve
