// A scenario map: one or several ASL boards placed on one global hex grid, converting between
// ASL names ("21K8") and global axial hexes.
//
// Each board is placed with its column A at global column `column_offset` and its row 0 at global
// row `row_offset` (offset coordinates, before the odd-q conversion of AslName.hpp). The column
// offset must be even so the board keeps its stagger (A, C, E.. high; B, D.. low). Two standard
// boards side by side, 21 left of 22, share the half-hex column GG/A at the seam:
//
//      board 21                       board 22
//     A ......................... GG=A ........................ GG
//     column_offset 0                 column_offset 32
//
// (use column_offset 33+1 = 34 if you rather want them not to share a column). A hex off every
// board is an error (umpire::RuleError), never a wrap-around. Where boards overlap, a hex is
// named after the board added first. Not modelled: boards turned 180° on the map.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/hex/AslName.hpp"
#include "core/hex/Hex.hpp"

namespace umpire::hex {

struct BoardPlacement {
    int board = 0;  // the board number names use; 0 = unnumbered (names print without it)
    int column_offset = 0;
    int row_offset = 0;
    BoardSize size{};
};

class Map {
public:
    // One standard board numbered `board` at the origin, which is also the default board, so both
    // "K8" and "<board>K8" name its hexes. Map() is a single unnumbered board.
    explicit Map(int board = 0);
    // Several boards; names without a board number mean `default_board`. RuleError for an empty
    // list, a duplicated board number, an odd column offset, a bad size or an unknown default.
    Map(std::vector<BoardPlacement> boards, int default_board);

    // The global hex of a name; RuleError if its board is not on the map or the hex is off it.
    Hex hex(const AslName& name) const;
    // Parses then converts: ParseError for unreadable text (checked against the named board's
    // size), RuleError for a board not on this map.
    Hex hex(std::string_view text) const;
    // The name of a global hex; RuleError if it is off every board.
    AslName name(Hex h) const;
    // name(h) as text, e.g. "21K8" (no board number on an unnumbered board).
    std::string tostring(Hex h) const;
    bool contains(Hex h) const;

    const std::vector<BoardPlacement>& boards() const { return boards_; }
    int default_board() const { return default_board_; }

private:
    const BoardPlacement* find(int board) const;
    const BoardPlacement* board_at(Hex h, AslName* local) const;

    std::vector<BoardPlacement> boards_;
    int default_board_ = 0;
};

}  // namespace umpire::hex
