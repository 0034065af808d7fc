// The content hash of a ruleset folder recorded in a journal (app/Replay.hpp: ruleset_hash) is
// read in pieces, so that a huge file in a stranger's ruleset folder is never held in memory
// (docs/sandbox.md, "Memory"). Checked against FNV-1a written here over the whole texts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "app/Replay.hpp"
#include "tests/support/helpers.hpp"

namespace fs = std::filesystem;

namespace {
std::uint64_t fnv(const std::string& bytes, std::uint64_t h) {
    for (const unsigned char c : bytes) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return h;
}
}  // namespace

TEST_CASE("replay: a ruleset's hash, read in pieces, is FNV-1a of its whole files", "[replay][hash]") {
    const fs::path dir = test_helpers::scratch_root() / "hash-pieces";
    fs::remove_all(dir);
    fs::create_directories(dir / "rules");
    std::mt19937 random(16);
    // Sizes around the 64 KiB piece: empty, smaller, exactly one, one and a bit, several.
    const std::vector<std::pair<std::string, std::size_t>> files = {
        {"ruleset.yaml", 0}, {"rules/a.lua", 100}, {"rules/b.lua", 65536}, {"rules/c.lua", 65537}, {"big.bin", 300001}};
    for (const auto& [name, size] : files) {
        std::string text(size, '\0');
        for (auto& c : text) c = static_cast<char>(random());
        std::ofstream(dir / name, std::ios::binary) << text;
    }
    std::vector<std::string> names;
    for (const auto& [name, size] : files) names.push_back(name);
    std::sort(names.begin(), names.end());  // the order of the recorded hash: paths sorted
    std::uint64_t h = 14695981039346656037ULL;
    for (const auto& name : names) {
        std::ifstream in(dir / name, std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        h = fnv(name, h);
        h = fnv(std::string(1, '\0'), h);
        h = fnv(text, h);
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    CHECK(umpire::replay::ruleset_hash(dir) == hex);
    fs::remove_all(dir);
}
