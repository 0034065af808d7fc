// A vehicle in Bypass (D2.3): it straddles a hexside of the obstacle hex it occupies, facing along
// that hexside toward one of its end vertices, the Covered Arc Focal Point (CAFP, D2.32).
//
//   Drawn for the D2.321 EX (PSW 234/2 in Bypass at 23BB3):
//                 ______
//          ______/ CC3  \      rear wedge: apex CC3, its N and NE hex rows and all between
//         / BB3  \______/
//         \______*  CC4 \      the vehicle lies along hexside BB3|CC4 facing SW, toward the
//         / BB4  \______/      CAFP * (the vertex BB3-BB4-CC4); the rear vertex is the other
//         \______/             end of that hexside (BB3-CC3-CC4)
//      front wedge: apex BB4, its S and SW hex rows and all between
//
// Front Target Facing (= Bypass VCA): the hex directly in front formed by the CAFP (the third hex
// at the CAFP, the "apex"), the two diagonal hex rows converging on it, and everything between:
// a closed 60° wedge of hex rows from the apex. Rear Target Facing: the same from the other end
// of the straddled hexside, opening the other way. Everything else, including the two straddled
// hexes themselves, is side. Hexes on the bounding rows are inside (Facing.hpp's boundary rule).
// Target Facing is by the firer's hex, not by the hexside crossed (D2.32). Not modelled: a firer
// itself on a CAFP separating two Target Facings (C.5B).
#pragma once
#include <array>

#include "core/hex/Facing.hpp"
#include "core/hex/Hex.hpp"
#include "core/hex/Hexside.hpp"
#include "core/hex/Vertex.hpp"

namespace umpire::hex {

struct Bypass {
    Hex hex;                           // the obstacle hex the vehicle occupies (D2.36)
    HexsideDir side = HexsideDir::N;   // the hexside of `hex` it straddles
    VertexDir cafp = VertexDir::NE;    // the vertex of `hex` it faces: an end of `side`

    constexpr bool operator==(const Bypass&) const = default;
};

// A validated Bypass position; RuleError unless `cafp` is one of the two ends of hexside `side`
// (hexside d runs from vertex d-1 to vertex d).
Bypass bypass(Hex hex, HexsideDir side, VertexDir cafp);

// The CAFP and the opposite end of the straddled hexside (from which the rear is traced).
Vertex cafp_vertex(const Bypass& b);
Vertex rear_vertex(const Bypass& b);
// The direction the vehicle faces, a hexspine direction (e.g. SW in the D2.321 EX).
VertexDir bypass_heading(const Bypass& b);
// The apex hexes of the front and rear Target Facings.
Hex front_apex(const Bypass& b);
Hex rear_apex(const Bypass& b);

// D2.32: whether `target` is in the Bypass VCA (which is also the front Target Facing).
bool in_bypass_vca(const Bypass& b, Hex target);
// D2.32: the Target Facing struck by fire from hex `firer`.
Facing bypass_target_facing(const Bypass& b, Hex firer);

}  // namespace umpire::hex
