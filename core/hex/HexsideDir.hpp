// Directions of the six hexsides of a flat-topped hex, numbered clockwise from the top.
//
//              N (0)
//           _______
//   NW (5) /       \  NE (1)
//         /         \ .
//         \         /
//   SW (4) \_______/  SE (2)
//
//              S (3)
//
// Screen orientation: columns vertical, rows numbered downwards (as on an ASL board), so N is
// "towards row 1". Hexside d is crossed when stepping to neighbour(h, d).
#pragma once
#include <string_view>

namespace umpire::hex {

enum class HexsideDir : int { N = 0, NE = 1, SE = 2, S = 3, SW = 4, NW = 5 };

// d turned `steps` hexsides clockwise (negative: anticlockwise).
constexpr HexsideDir rotate(HexsideDir d, int steps) {
    return static_cast<HexsideDir>((((static_cast<int>(d) + steps) % 6) + 6) % 6);
}
constexpr HexsideDir opposite(HexsideDir d) { return rotate(d, 3); }
constexpr int index(HexsideDir d) { return static_cast<int>(d); }

// "N", "NE", ... for messages and bindings.
constexpr std::string_view name(HexsideDir d) {
    constexpr std::string_view names[] = {"N", "NE", "SE", "S", "SW", "NW"};
    return names[index(d)];
}

}  // namespace umpire::hex
