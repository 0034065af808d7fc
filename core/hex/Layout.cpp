#include "core/hex/Layout.hpp"

#include <cmath>

namespace umpire::hex {

namespace {
constexpr double kSqrt3 = 1.7320508075688772;
constexpr double kPi = 3.14159265358979323846;
}  // namespace

PixelPoint pixel_centre(Hex h, double size) {
    return {size * 1.5 * h.q, size * kSqrt3 * (h.r + h.q / 2.0)};
}

PixelPoint pixel_corner(Hex h, VertexDir d, double size) {
    // Flat-topped: the E corner is at 0 degrees; y grows downwards, so SE is at +60.
    const double angle = (index(d) - 1) * 60.0 * kPi / 180.0;
    const PixelPoint c = pixel_centre(h, size);
    return {c.x + size * std::cos(angle), c.y + size * std::sin(angle)};
}

PixelPoint pixel_hexside_mid(Hex a, Hex b, double size) {
    const PixelPoint p = pixel_centre(a, size), q = pixel_centre(b, size);
    return {(p.x + q.x) / 2, (p.y + q.y) / 2};
}

}  // namespace umpire::hex
