// umpire draw SCENARIO --svg FILE: a picture of a scenario (app/ScenarioDraw.hpp): an ASL hex
// map with the overlays asked for, or a Bolt Action tabletop with arcs and HE templates.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/ScenarioDraw.hpp"
#include "cli/Common.hpp"
#include "ruleset/Load.hpp"

namespace umpire::cli {

int cmd_draw(const Common& common, const DrawInputs& in) {
    if (int rc = refuse_output_flags(common, "draw", false)) return rc;
    std::vector<std::filesystem::path> outputs;
    if (!in.svg.empty() && in.svg != "-") outputs.emplace_back(in.svg);
    return isolated(common, [&] {
        DrawOptions o;
        o.fire_lane = in.fire_lane;
        o.alt_grain = in.alt_grain;
        o.covered_arc = in.covered_arc;
        o.facing = in.facing;
        o.path = in.path;
        // (the scenario read and the rules loaded, then the worker's files closed: draw_with_rules)
        const std::string svg = draw_with_rules(in.scenario, split_rulesets(common).load, host_options(common), o);
        if (in.svg.empty() || in.svg == "-") {
            std::cout << svg;
        } else {
            isolation::write_file(in.svg, svg);  // through the parent when isolated
            std::cout << "Wrote " << in.svg << "\n";
        }
        return kOk;
    }, outputs, {in.scenario}, FileAccess::none_reloading);
}

}  // namespace umpire::cli
