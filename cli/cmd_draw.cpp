// umpire draw SCENARIO --svg FILE: a picture of a scenario (bindings/ScenarioDraw.hpp): an ASL hex
// map with the overlays asked for, or a Bolt Action tabletop with arcs and HE templates.
#include <fstream>
#include <iostream>

#include "bindings/ScenarioDraw.hpp"
#include "cli/Common.hpp"

namespace umpire::cli {

int cmd_draw(const Common& common, const DrawInputs& in) {
    if (int rc = refuse_output_flags(common, "draw", false)) return rc;
    return guarded(common, [&] {
        const HostOptions options = host_options(common);
        LuaHost probe(options);
        const auto file = find_scenario(in.scenario, split_rulesets(common).load, probe.search_path());
        DrawOptions o;
        o.fire_lane = in.fire_lane;
        o.alt_grain = in.alt_grain;
        o.covered_arc = in.covered_arc;
        o.facing = in.facing;
        o.path = in.path;
        const std::string svg = draw_scenario(file, o);
        if (in.svg.empty() || in.svg == "-") {
            std::cout << svg;
        } else {
            std::ofstream out(in.svg, std::ios::binary);
            out << svg;
            if (!out) throw std::runtime_error("cannot write " + in.svg);
            std::cout << "Wrote " << in.svg << "\n";
        }
        return kOk;
    });
}

}  // namespace umpire::cli
