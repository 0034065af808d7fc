#include "core/bus/Hash.hpp"

namespace umpire::bus {

std::string hash_hex(std::uint64_t h) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<std::size_t>(i)] = digits[h & 0xf];
    return out;
}

}  // namespace umpire::bus
