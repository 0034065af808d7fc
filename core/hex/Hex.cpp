#include "core/hex/Hex.hpp"

#include <cstdint>
#include <cstdlib>

#include "core/Error.hpp"

namespace umpire::hex {

namespace {

// The 2D cross product of axial vectors. Axial (q, r) is a linear image of the board's plane, so
// the sign of this cross product tells on which side of u the vector v lies without converting to
// (irrational) screen coordinates: a positive value means v is clockwise of u as seen on the
// board (cross(N, NE) = +1).
std::int64_t cross(Hex u, Hex v) {
    return std::int64_t{u.q} * v.r - std::int64_t{u.r} * v.q;
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {  // b > 0
    std::int64_t q = a / b;
    if (a % b != 0 && a < 0) --q;
    return q;
}

// One cube coordinate of a sample point, value/den + eps*nudge, rounded to the nearest integer;
// see line() for why the nudge is carried symbolically.
struct Rounded {
    std::int64_t value;     // the rounded integer coordinate
    std::int64_t diff_num;  // |value - exact| scaled by den ...
    std::int64_t diff_eps;  // ... plus eps * this, as a lexicographic pair
};

Rounded round_coordinate(std::int64_t num, std::int64_t den, std::int64_t nudge) {
    const std::int64_t k = floor_div(num, den);
    const std::int64_t twice_frac = 2 * (num - k * den);
    // Exactly halfway the nudge decides; it is never 0 there (see line()), so the floor
    // fallback is only defensive.
    const bool up = twice_frac > den || (twice_frac == den && nudge > 0);
    const std::int64_t value = up ? k + 1 : k;
    std::int64_t d_num = num - value * den;  // exact - rounded, scaled by den
    std::int64_t d_eps = nudge;
    if (d_num < 0 || (d_num == 0 && d_eps < 0)) {
        d_num = -d_num;
        d_eps = -d_eps;
    }
    return {value, d_num, d_eps};
}

bool larger(const Rounded& a, const Rounded& b) {
    return a.diff_num != b.diff_num ? a.diff_num > b.diff_num : a.diff_eps > b.diff_eps;
}

}  // namespace

int distance(Hex a, Hex b) {
    const Hex d = a - b;
    return (std::abs(d.q) + std::abs(d.r) + std::abs(d.s())) / 2;
}

std::array<Hex, 6> neighbours(Hex h) {
    std::array<Hex, 6> out;
    for (int d = 0; d < 6; ++d) out[d] = neighbour(h, static_cast<HexsideDir>(d));
    return out;
}

// A ring is walked from its N-most hex clockwise: SE, S, SW, NW, N, NE, `radius` steps each,
// which visits every hex at that distance exactly once.
std::vector<Hex> ring(Hex center, int radius) {
    if (radius < 0) throw RuleError("hex ring: radius " + std::to_string(radius) + " is negative");
    if (radius == 0) return {center};
    std::vector<Hex> out;
    out.reserve(6 * static_cast<std::size_t>(radius));
    Hex h = center + radius * direction(HexsideDir::N);
    for (int side = 0; side < 6; ++side) {
        const Hex step = direction(rotate(HexsideDir::SE, side));
        for (int i = 0; i < radius; ++i) {
            out.push_back(h);
            h = h + step;
        }
    }
    return out;
}

std::vector<Hex> range(Hex center, int radius) {
    if (radius < 0) throw RuleError("hex range: radius " + std::to_string(radius) + " is negative");
    std::vector<Hex> out;
    out.reserve(1 + 3 * static_cast<std::size_t>(radius) * (radius + 1));
    for (int k = 0; k <= radius; ++k)
        for (Hex h : ring(center, k)) out.push_back(h);
    return out;
}

// The hex line. With N = distance(a, b), the segment between the two centres is sampled at the
// N + 1 points a + (b - a) * i / N, and each sample is rounded to the hex containing it (cube
// rounding: round each of q, r, s and recompute the one that moved most, so q + r + s = 0). This
// yields N + 1 hexes, each adjacent to the next.
//
// Ties: a sample may fall exactly on a hexside or vertex (always the case at every other sample
// of an Alternate Hex Grain). The usual fix, adding a small epsilon to the endpoints, is done here
// exactly: every sample is shifted by eps * n, where n = (r - s, s - q, q - r) of the direction
// b - a is the direction rotated 90° to the LEFT (Side::Right uses -n), and eps is an
// infinitesimal. Coordinates are kept as exact rationals num/N plus eps*nudge and compared
// lexicographically, so no floating point and no choice of epsilon is involved. A half-integer
// coordinate never has a zero nudge component (a zero component of n means two components of
// b - a are equal, which makes the third one move in whole steps), so every tie is decided.
std::vector<Hex> line(Hex a, Hex b, Side tie) {
    const int n = distance(a, b);
    if (n == 0) return {a};
    const Hex d = b - a;
    const int sign = tie == Side::Left ? 1 : -1;
    const std::int64_t nudge_q = sign * std::int64_t{d.r - d.s()};
    const std::int64_t nudge_r = sign * std::int64_t{d.s() - d.q};
    const std::int64_t nudge_s = sign * std::int64_t{d.q - d.r};
    std::vector<Hex> out;
    out.reserve(static_cast<std::size_t>(n) + 1);
    out.push_back(a);
    for (int i = 1; i < n; ++i) {
        const Rounded q = round_coordinate(std::int64_t{a.q} * n + std::int64_t{d.q} * i, n, nudge_q);
        const Rounded r = round_coordinate(std::int64_t{a.r} * n + std::int64_t{d.r} * i, n, nudge_r);
        const Rounded s = round_coordinate(std::int64_t{a.s()} * n + std::int64_t{d.s()} * i, n, nudge_s);
        std::int64_t rq = q.value, rr = r.value;
        if (larger(q, r) && larger(q, s))
            rq = -r.value - s.value;
        else if (!larger(s, r))  // r moved most (a full tie prefers fixing r: deterministic)
            rr = -q.value - s.value;
        // else s moved most: q and r stand, s is implied.
        out.push_back({static_cast<int>(rq), static_cast<int>(rr)});
    }
    out.push_back(b);
    return out;
}

bool grain(Hex a, Hex b) {
    const Hex d = b - a;
    return !(a == b) && (d.q == 0 || d.r == 0 || d.s() == 0);
}

bool on_alt_grain(Hex a, Hex b) {
    const Hex d = b - a;
    return !(a == b) && (d.q == d.r || d.r == d.s() || d.s() == d.q);
}

std::vector<Hex> alt_grain(Hex from, Hex toward, Side side) {
    if (!on_alt_grain(from, toward))
        throw RuleError("alternate hex grain: " + to_string(from) + " and " + to_string(toward) +
                        " do not lie on one hexspine (A9.221)");
    std::vector<Hex> out = line(from, toward, side);
    out.erase(out.begin());
    return out;
}

bool in_wedge(Hex apex, Hex u, Hex v, Hex target) {
    const Hex d = target - apex;
    const std::int64_t orient = cross(u, v) > 0 ? 1 : -1;
    return cross(u, d) * orient >= 0 && cross(d, v) * orient >= 0;
}

std::string to_string(Hex h) {
    return "(" + std::to_string(h.q) + "," + std::to_string(h.r) + ")";
}

}  // namespace umpire::hex
