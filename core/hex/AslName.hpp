// ASL board notation: "21K8" is board 21, column K, row 8.
//
//   board  column  row         columns: A..Z, then AA, BB, .. GG (33 on a standard board);
//    21      K      8          a doubled column repeats one letter ("KL" is an error).
//                              rows: 0..10 (row 0 and row 10 are the half hexes at the board
//                              edges; standard full hexes are 1..10). Board may be omitted:
//                              "K8" means the map's default board.
//
// Columns are vertical, rows numbered downwards, hexes flat-topped; the 2nd, 4th, ... columns
// (B, D, F, ...) sit half a hex lower than A, C, E, ...:
//       ___     ___
//      /A1 \___/C1 \___            0-based column c, row n  <->  axial q = c,
//      \___/B1 \___/D1 \           r = n - (c - (c & 1)) / 2   ("odd-q")
//      /A2 \___/C2 \___/
//      \___/B2 \___/D2 \ .
//
// Parsing is strict about shape (so typos are caught) and points at the offending character.
#pragma once
#include <string>
#include <string_view>

#include "core/hex/Hex.hpp"

namespace umpire::hex {

// The extent of one board, in board-local columns and rows.
struct BoardSize {
    int columns = 33;  // A..GG; at most 52 (A..ZZ)
    int first_row = 0;
    int last_row = 10;

    constexpr bool operator==(const BoardSize&) const = default;
};

struct AslName {
    int board = 0;   // 0: not given (the default board); otherwise 1..9999
    int column = 0;  // 0-based: A = 0, Z = 25, AA = 26, GG = 32
    int row = 0;

    constexpr bool operator==(const AslName&) const = default;
    constexpr auto operator<=>(const AslName&) const = default;
};

// Reads "21K8", "K8", "3X3", "23BB4", "J0". Throws umpire::ParseError("hex", text, offset,
// problem) with the offset of the offending character: empty input, a missing/bad column or row,
// mixed letters ("21KL8"), lower case, a column beyond the board ("HH3" on a 33-column board), a
// row off the board ("K99"), leading zeros, trailing characters.
AslName parse_asl_name(std::string_view text, const BoardSize& size = {});

// The letters of a 0-based column: 0 -> "A", 26 -> "AA", 32 -> "GG". RuleError outside 0..51.
std::string column_letters(int column);

// "21K8", or "K8" when board == 0. Inverse of parse_asl_name.
std::string to_string(const AslName& name);

// Board-local geometry (one board at the origin, board number ignored): column/row <-> axial.
Hex local_hex(int column, int row);
// The inverse: {column, row} of a hex in board-local coordinates (board left 0).
AslName local_name(Hex h);

}  // namespace umpire::hex
