#include "core/dice/Generator.hpp"

#include <cstdio>

#include "core/Error.hpp"

namespace umpire::dice {

namespace {
inline std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
const char* const text_prefix = "xoshiro256**:";
}  // namespace

std::uint64_t Generator::splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

Generator::Generator(std::uint64_t seed) {
    for (auto& word : state_) word = splitmix64(seed);
    origin_ = state_;
}

Generator::Generator(const State& state, int) : state_(state), origin_(state) {}

Generator Generator::from_state(const State& state) {
    if ((state[0] | state[1] | state[2] | state[3]) == 0)
        throw RuleError("generator state cannot be all zero (xoshiro would output only zeros)");
    return Generator(state, 0);
}

std::uint64_t Generator::next() {
    // xoshiro256** 1.0, as in the reference xoshiro256starstar.c.
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
}

// Lemire's method ("Fast random integer generation in an interval", 2019): multiply a 32-bit
// random x by n; the high word of x*n is uniform over 0..n-1 except for the few x whose low word
// falls below 2^32 mod n, which we reject. The modulo is computed only when the low word is small,
// so the common case is one multiplication. We use the high 32 bits of next(), the strongest ones.
std::uint32_t Generator::uniform(std::uint32_t n) {
    if (n == 0) throw RuleError("uniform(0): a die needs at least one side");
    std::uint64_t m = (next() >> 32) * static_cast<std::uint64_t>(n);
    auto low = static_cast<std::uint32_t>(m);
    if (low < n) {
        const std::uint32_t threshold = static_cast<std::uint32_t>(-n) % n;
        while (low < threshold) {
            m = (next() >> 32) * static_cast<std::uint64_t>(n);
            low = static_cast<std::uint32_t>(m);
        }
    }
    return static_cast<std::uint32_t>(m >> 32) + 1;
}

void Generator::jump() {
    static constexpr std::uint64_t jump_poly[] = {0x180ec6d33cfd0abaULL, 0xd5a61266f0c9392cULL,
                                                  0xa9582618e03fc9aaULL, 0x39abdc4529b1661cULL};
    State s{0, 0, 0, 0};
    for (std::uint64_t word : jump_poly)
        for (int b = 0; b < 64; ++b) {
            if (word & (std::uint64_t{1} << b))
                for (int i = 0; i < 4; ++i) s[i] ^= state_[i];
            next();
        }
    state_ = s;
}

Generator Generator::stream(std::uint64_t k) const {
    Generator g(origin_, 0);
    for (std::uint64_t i = 0; i < k; ++i) g.jump();
    g.origin_ = g.state_;
    return g;
}

std::string Generator::to_text() const {
    std::string out = text_prefix;
    char buf[17];
    for (int i = 0; i < 4; ++i) {
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(state_[i]));
        out += buf;
        if (i < 3) out += ':';
    }
    return out;
}

Generator Generator::from_text(const std::string& text) {
    const std::string prefix = text_prefix;
    const char* kind = "generator state";
    if (text.compare(0, prefix.size(), prefix) != 0) {
        std::size_t pos = 0;
        while (pos < text.size() && pos < prefix.size() && text[pos] == prefix[pos]) ++pos;
        throw ParseError(kind, text, pos, "expected 'xoshiro256**:' followed by 4 hex words");
    }
    State s{};
    std::size_t pos = prefix.size();
    for (int i = 0; i < 4; ++i) {
        std::uint64_t word = 0;
        for (int d = 0; d < 16; ++d, ++pos) {
            if (pos >= text.size()) throw ParseError(kind, text, pos, "expected 16 hex digits per word");
            const char c = text[pos];
            int v;
            if (c >= '0' && c <= '9') v = c - '0';
            else if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
            else if (c >= 'A' && c <= 'F') v = c - 'A' + 10;
            else throw ParseError(kind, text, pos, "expected a hex digit");
            word = (word << 4) | static_cast<std::uint64_t>(v);
        }
        s[i] = word;
        if (i < 3) {
            if (pos >= text.size() || text[pos] != ':') throw ParseError(kind, text, pos, "expected ':'");
            ++pos;
        }
    }
    if (pos != text.size()) throw ParseError(kind, text, pos, "unexpected text after the state");
    if ((s[0] | s[1] | s[2] | s[3]) == 0) throw ParseError(kind, text, prefix.size(), "state cannot be all zero");
    return Generator(s, 0);
}

}  // namespace umpire::dice
