// Shared helpers for the hex tests: name hexes the way the rulebook does.
#pragma once
#include <string>
#include <vector>

#include "core/hex/Map.hpp"

namespace hex_test {

// A single board, numbered 0 (names without a board number) unless told otherwise.
inline umpire::hex::Hex H(const std::string& name, int board = 0) {
    return umpire::hex::Map(board).hex(name);
}

inline std::vector<umpire::hex::Hex> Hs(const std::vector<std::string>& names, int board = 0) {
    std::vector<umpire::hex::Hex> out;
    for (const auto& n : names) out.push_back(H(n, board));
    return out;
}

inline std::vector<std::string> names(const std::vector<umpire::hex::Hex>& hexes) {
    umpire::hex::Map map;
    std::vector<std::string> out;
    for (auto h : hexes) out.push_back(map.tostring(h));
    return out;
}

}  // namespace hex_test
