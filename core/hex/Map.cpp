#include "core/hex/Map.hpp"

#include "core/Error.hpp"

namespace umpire::hex {

Map::Map(int board) : Map(std::vector<BoardPlacement>{{board, 0, 0, BoardSize{}}}, board) {}

Map::Map(std::vector<BoardPlacement> boards, int default_board)
    : boards_(std::move(boards)), default_board_(default_board) {
    if (boards_.empty()) throw RuleError("map: no boards");
    for (std::size_t i = 0; i < boards_.size(); ++i) {
        const BoardPlacement& b = boards_[i];
        const std::string which = "map: board " + std::to_string(b.board);
        if (b.board < 0 || b.board > 9999) throw RuleError(which + ": numbers are 0..9999");
        if (b.column_offset % 2 != 0)
            throw RuleError(which + ": column offset " + std::to_string(b.column_offset) +
                            " is odd, which would shift its half-hex stagger");
        if (b.size.columns < 1 || b.size.columns > 52 || b.size.first_row > b.size.last_row)
            throw RuleError(which + ": bad size");
        for (std::size_t j = 0; j < i; ++j)
            if (boards_[j].board == b.board) throw RuleError(which + " is placed twice");
    }
    if (!find(default_board_))
        throw RuleError("map: default board " + std::to_string(default_board_) + " is not on it");
}

const BoardPlacement* Map::find(int board) const {
    for (const BoardPlacement& b : boards_)
        if (b.board == board) return &b;
    return nullptr;
}

// Work in global offset coordinates: a board is a rectangle of columns and rows there, which
// makes "which board holds this hex" a range check. The even column offset keeps odd-q valid.
const BoardPlacement* Map::board_at(Hex h, AslName* local) const {
    const AslName global = local_name(h);
    for (const BoardPlacement& b : boards_) {
        const int c = global.column - b.column_offset, n = global.row - b.row_offset;
        if (c >= 0 && c < b.size.columns && n >= b.size.first_row && n <= b.size.last_row) {
            if (local) *local = {b.board, c, n};
            return &b;
        }
    }
    return nullptr;
}

Hex Map::hex(const AslName& name) const {
    const int number = name.board != 0 ? name.board : default_board_;
    const BoardPlacement* b = find(number);
    if (!b) throw RuleError("map: board " + std::to_string(number) + " is not on this map");
    if (name.column < 0 || name.column >= b->size.columns || name.row < b->size.first_row ||
        name.row > b->size.last_row)
        throw RuleError("map: column " + std::to_string(name.column) + " row " +
                        std::to_string(name.row) + " is off board " + std::to_string(number));
    return local_hex(name.column + b->column_offset, name.row + b->row_offset);
}

Hex Map::hex(std::string_view text) const {
    // The board's own size decides what is off it, so read the board number first; a malformed
    // number is reported by the full parse below.
    int number = 0;
    std::size_t i = 0;
    while (i < text.size() && i < 4 && text[i] >= '0' && text[i] <= '9')
        number = number * 10 + (text[i++] - '0');
    const BoardPlacement* b = find(number != 0 ? number : default_board_);
    const AslName name = parse_asl_name(text, b ? b->size : BoardSize{});
    return hex(name);
}

AslName Map::name(Hex h) const {
    AslName local;
    if (!board_at(h, &local)) throw RuleError("map: hex " + to_string(h) + " is off the map");
    return local;
}

std::string Map::tostring(Hex h) const { return to_string(name(h)); }

bool Map::contains(Hex h) const { return board_at(h, nullptr) != nullptr; }

}  // namespace umpire::hex
