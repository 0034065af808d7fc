#include "core/dice/AslDr.hpp"

namespace umpire::dice {

AslDr AslDr::roll(DieSource& source) {
    AslDr dr;
    dr.colored = source.die(6);  // coloured first: see the header
    dr.white = source.die(6);
    return dr;
}

std::string AslDr::to_string() const {
    return "DR " + std::to_string(total()) + " (colored " + std::to_string(colored) + ", white " +
           std::to_string(white) + ")";
}

}  // namespace umpire::dice
