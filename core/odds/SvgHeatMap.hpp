// A heat map of one figure over a grid of two parameters (what `umpire sweep --heat` draws): one
// panel per ruleset, and when two are compared, a third panel of their difference, coloured on a
// diverging scale (blue up, red down) around zero.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace umpire::odds {

struct HeatPanel {
    std::string title;
    std::vector<std::vector<std::optional<double>>> values;  // [y][x]; nullopt: no value there
    bool difference = false;  // diverging colours around 0, values shown signed
};

struct HeatMap {
    std::string title;
    std::string x_name, y_name;
    std::vector<std::string> x_labels, y_labels;
    std::vector<HeatPanel> panels;
    bool percent = true;  // values are probabilities, shown as percentages (else plain numbers)
};

// Cells are <rect class="cell"> with a tooltip "x=.., y=..: value", each labelled with its value;
// panels side by side, each with its own colour scale (0..1 for probabilities, min..max else).
std::string to_svg(const HeatMap& map);

}  // namespace umpire::odds
