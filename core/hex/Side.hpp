// Left or right, as seen looking along a line from its first hex toward its last.
// Used to settle exact ties in the hex line and to declare the side of an Alternate Hex Grain.
#pragma once
#include <string_view>

namespace umpire::hex {

enum class Side : int { Left = 0, Right = 1 };

constexpr std::string_view name(Side s) { return s == Side::Left ? "left" : "right"; }

}  // namespace umpire::hex
