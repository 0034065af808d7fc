// `umpire draw`: reads a scenario file (rulesets/<r>/scenarios/*.yaml) and fills the kernel's
// picture scenes (core/draw/MapSvg.hpp) with it, using the kernel's geometry for the overlays:
// a hex scenario (ASL: map.hexes, hexsides, units, vehicles, lanes, moves) or a tabletop one
// (Bolt Action: units with models in inches; HE templates placed by core/table/Placement).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace umpire {

class LuaHost;
struct HostOptions;

struct DrawOptions {
    bool fire_lane = false;    // A9.22: each declared lane's hexes and its line (lane:/lanes:)
    bool alt_grain = false;    // A9.221: both sides of each alternate-hex-grain lane
    bool covered_arc = false;  // C3.2/D3.1: each vehicle's VCA
    bool facing = false;       // each vehicle's facing vertex (an arrow)
    bool path = false;         // moves: from -> to arrows
};

// The SVG of a scenario file. Throws ScriptError "file:line:col: ..." for a bad file or hex name.
// With `rules` (a host with the scenario's rulesets loaded), a hex map also carries the notes and
// arrows the rulesets add through umpire.hooks "draw" (asl: each lane hex's Fire Lane Residual
// FP; each vehicle path step with its MP).
std::string draw_scenario(const std::filesystem::path& file, const DrawOptions& options, LuaHost* rules = nullptr);

// Is the scenario file a tabletop (units with models in inches), not a hex map? (What
// draw_scenario draws it as; a file it cannot read is a ScriptError with file:line:col.)
bool is_tabletop_scenario(const std::filesystem::path& file);

// A scenario given by file path, or by name in scenarios/ of the named rulesets (their extends
// chains, leaf first) on the search path.
std::filesystem::path find_scenario(const std::string& file_or_name, const std::vector<std::string>& rulesets,
                                    const std::vector<std::filesystem::path>& search_path);

// `umpire draw` as the command runs it: finds the scenario (find_scenario), reads it (kept in
// memory, in a worker that keeps its files: host/FileSnapshot.hpp), loads `rulesets` into a host
// made with `options` (none given: the ruleset the scenario file lies in, if any), closes the
// worker's files (isolation::close_files; nothing elsewhere), and draws: the rules' draw hooks run
// with no file open (docs/sandbox.md, "No file opened after loading").
std::string draw_with_rules(const std::string& file_or_name, std::vector<std::string> rulesets,
                            const HostOptions& options, const DrawOptions& draw);

}  // namespace umpire
