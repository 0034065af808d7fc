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
        const HostOptions options = host_options(common);
        LuaHost rules(options);
        std::vector<std::string> rulesets = split_rulesets(common).load;
        const auto file = find_scenario(in.scenario, rulesets, ruleset::search_path(rules));
        // A scenario file inside a ruleset (rulesets/asl/scenarios/x.yaml) brings its ruleset,
        // so the ruleset's own notes (asl: Fire Lane Residual FP) appear without --ruleset.
        const auto home = std::filesystem::absolute(file).parent_path().parent_path();
        if (rulesets.empty() && std::filesystem::is_regular_file(home / "ruleset.yaml")) rulesets.push_back(home.string());
        if (!rulesets.empty()) ruleset::load(rules, rulesets);
        DrawOptions o;
        o.fire_lane = in.fire_lane;
        o.alt_grain = in.alt_grain;
        o.covered_arc = in.covered_arc;
        o.facing = in.facing;
        o.path = in.path;
        const std::string svg = draw_scenario(file, o, rulesets.empty() ? nullptr : &rules);
        if (in.svg.empty() || in.svg == "-") {
            std::cout << svg;
        } else {
            isolation::write_file(in.svg, svg);  // through the parent when isolated
            std::cout << "Wrote " << in.svg << "\n";
        }
        return kOk;
    }, outputs, {in.scenario});
}

}  // namespace umpire::cli
