// Pixel geometry of the flat-topped hex grid (Hex.hpp), for drawing: hex centres and corners in
// a y-down picture. `size` is the distance from a hex's centre to each of its corners; hex
// columns are 1.5 * size apart, a column's hexes sqrt(3) * size apart, and odd columns (B, D, ...
// in ASL names: axial q odd) come out half a hex lower, as on the boards.
#pragma once
#include "core/hex/Hex.hpp"
#include "core/hex/VertexDir.hpp"

namespace umpire::hex {

struct PixelPoint {
    double x = 0;
    double y = 0;
};

PixelPoint pixel_centre(Hex h, double size);
// The corner of h at vertex direction d (NE, E, SE, SW, W, NW).
PixelPoint pixel_corner(Hex h, VertexDir d, double size);
// The midpoint of the hexside between two adjacent hexes.
PixelPoint pixel_hexside_mid(Hex a, Hex b, double size);

}  // namespace umpire::hex
