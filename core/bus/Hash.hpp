// Stable, dependency-free hashes for journals and rulesets.
//
// FNV-1a 64 (Fowler–Noll–Vo): for each byte, h = (h XOR byte) * 0x100000001b3, starting from the
// offset basis 0xcbf29ce484222325. It is not cryptographic; it identifies content (same journal,
// same ruleset file) and detects accidental change, which is all replay needs. The value depends
// only on the bytes, never on the platform's endianness or word size.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace umpire::bus {

constexpr std::uint64_t fnv1a_64(std::string_view bytes,
                                 std::uint64_t h = 0xcbf29ce484222325ULL) {
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 0x100000001b3ULL;
    }
    return h;
}

// 16 lower-case hex digits, zero-padded: the form hashes take in journals and on the CLI.
std::string hash_hex(std::uint64_t h);

}  // namespace umpire::bus
