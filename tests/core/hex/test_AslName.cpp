#include <catch2/catch.hpp>

#include "core/Error.hpp"
#include "core/Utf8.hpp"
#include "core/hex/AslName.hpp"

using namespace umpire::hex;

namespace {
// The offset and problem of the ParseError that text raises.
std::pair<std::size_t, std::string> error_of(const std::string& text, const BoardSize& size = {}) {
    try {
        parse_asl_name(text, size);
    } catch (const umpire::ParseError& e) {
        CHECK(e.input == text);
        return {e.position, e.problem};
    }
    FAIL("no ParseError for '" << text << "'");
    return {};
}
}  // namespace

TEST_CASE("ASL names: parse board, column, row", "[hex][asl]") {
    CHECK(parse_asl_name("21K8") == AslName{21, 10, 8});
    CHECK(parse_asl_name("K8") == AslName{0, 10, 8});
    CHECK(parse_asl_name("A1") == AslName{0, 0, 1});
    CHECK(parse_asl_name("Z10") == AslName{0, 25, 10});
    CHECK(parse_asl_name("AA5") == AslName{0, 26, 5});
    CHECK(parse_asl_name("3X3") == AslName{3, 23, 3});
    CHECK(parse_asl_name("23BB4") == AslName{23, 27, 4});
    CHECK(parse_asl_name("GG10") == AslName{0, 32, 10});
    CHECK(parse_asl_name("J0") == AslName{0, 9, 0});  // half hex (D2.33 EX)
    CHECK(parse_asl_name("9999A1").board == 9999);
}

TEST_CASE("ASL names: AA is not A", "[hex][asl]") {
    CHECK(parse_asl_name("A5").column == 0);
    CHECK(parse_asl_name("AA5").column == 26);
    CHECK(parse_asl_name("A5") != parse_asl_name("AA5"));
    CHECK(column_letters(0) == "A");
    CHECK(column_letters(25) == "Z");
    CHECK(column_letters(26) == "AA");
    CHECK(column_letters(32) == "GG");
    CHECK(column_letters(51) == "ZZ");
    CHECK_THROWS_AS(column_letters(52), umpire::RuleError);
}

TEST_CASE("ASL names: every name A1..GG10 (and row 0) round-trips", "[hex][asl]") {
    int n = 0;
    for (int board : {0, 1, 21, 9999})
        for (int c = 0; c < 33; ++c)
            for (int row = 0; row <= 10; ++row) {
                const AslName name{board, c, row};
                const std::string text = to_string(name);
                CHECK(parse_asl_name(text) == name);
                CHECK(to_string(parse_asl_name(text)) == text);
                // local hex conversion round-trips too
                CHECK(local_name(local_hex(c, row)) == AslName{0, c, row});
                ++n;
            }
    CHECK(n == 4 * 33 * 11);
    CHECK(to_string(AslName{21, 10, 8}) == "21K8");
    CHECK(to_string(AslName{0, 27, 5}) == "BB5");
}

TEST_CASE("ASL names: odd-q layout, B D F.. half a hex lower", "[hex][asl]") {
    CHECK(local_hex(0, 0) == Hex{0, 0});
    CHECK(local_hex(1, 1) == Hex{1, 1});   // B1
    CHECK(local_hex(2, 1) == Hex{2, 0});   // C1
    CHECK(local_hex(3, 1) == Hex{3, 0});   // D1
    // A1's SE neighbour is B1 (lower column), C1's NE neighbour is D1... no: D1 is SE of C1.
    CHECK(neighbour(local_hex(0, 1), HexsideDir::SE) == local_hex(1, 1));
    CHECK(neighbour(local_hex(1, 1), HexsideDir::NE) == local_hex(2, 1));
    CHECK(neighbour(local_hex(2, 1), HexsideDir::SE) == local_hex(3, 1));
    CHECK(neighbour(local_hex(1, 2), HexsideDir::N) == local_hex(1, 1));
    // Negative columns stay consistent (maps may extend left of a board).
    for (int c = -5; c <= 5; ++c)
        for (int row = -3; row <= 3; ++row) CHECK(local_name(local_hex(c, row)) == AslName{0, c, row});
}

TEST_CASE("ASL names: errors point at the offending character", "[hex][asl]") {
    CHECK(error_of("").first == 0);
    CHECK(error_of("21K").first == 3);                // row missing at the end
    CHECK(error_of("21").first == 2);                 // column missing at the end
    auto [at, why] = error_of("21KL8");
    CHECK(at == 3);                                   // the L
    CHECK_THAT(why, Catch::Contains("mixed"));
    CHECK(error_of("HH3").first == 0);                // beyond GG
    CHECK_THAT(error_of("HH3").second, Catch::Contains("beyond GG"));
    CHECK(error_of("21HH3").first == 2);
    CHECK(error_of("K99").first == 1);                // off the board
    CHECK_THAT(error_of("K99").second, Catch::Contains("off the board"));
    CHECK(error_of("K11").first == 1);
    CHECK(error_of("AAA1").first == 2);               // too many letters
    CHECK(error_of("k8").first == 0);                 // lower case
    CHECK(error_of("K08").first == 1);                // leading zero
    CHECK(error_of("021K8").first == 0);
    CHECK(error_of("0K8").first == 0);                // no board 0
    CHECK(error_of("K8 ").first == 2);                // trailing
    CHECK(error_of("K8x").first == 2);
    CHECK(error_of(" K8").first == 0);
    CHECK(error_of("21-K8").first == 2);
    CHECK(error_of("K").first == 1);
    CHECK(error_of("12345K8").first == 4);            // board too long
    CHECK(error_of("K1000").first == 4);              // row too long
    CHECK(error_of("8K").first == 2);
    // The message draws a caret under the bad character.
    try {
        parse_asl_name("21KL8");
    } catch (const umpire::ParseError& e) {
        CHECK_THAT(std::string(e.what()), Catch::Contains("21KL8\n     ^"));
    }
}

TEST_CASE("ASL names: configurable board size", "[hex][asl]") {
    const BoardSize small{10, 1, 5};  // A..J, rows 1..5
    CHECK(parse_asl_name("J5", small) == AslName{0, 9, 5});
    CHECK(error_of("K5", small).first == 0);
    CHECK(error_of("J0", small).first == 1);
    CHECK(error_of("J6", small).first == 1);
    const BoardSize wide{52, 0, 20};
    CHECK(parse_asl_name("ZZ20", wide) == AslName{0, 51, 20});
}

// A long input is drawn by a window around the bad character (a 100 000-character hex name was
// printed whole, twice). Checked against the input itself over random lengths and positions: the
// caret stands under input[position], the drawn text is a piece of the input, and it is short.
TEST_CASE("a parse error draws a long input by a window around the bad character", "[hex][errors]") {
    std::uint64_t x = 12345;
    const auto next = [&](std::uint64_t n) { x = x * 16807 % 2147483647; return x % n; };
    for (int round = 0; round < 2000; ++round) {
        const std::size_t length = 1 + next(300);
        std::string input;
        for (std::size_t i = 0; i < length; ++i) input += static_cast<char>('A' + next(26));
        const std::size_t position = next(length);
        const std::string what = umpire::ParseError("hex", input, position, "p").what();
        const std::size_t l2 = what.find("\n  "), l3 = what.find("\n  ", l2 + 1);
        REQUIRE(l3 != std::string::npos);
        const std::string drawn = what.substr(l2 + 3, l3 - l2 - 3), caret = what.substr(l3 + 3);
        INFO(what);
        CHECK(what.find("at column " + std::to_string(position + 1) + ": p") != std::string::npos);
        REQUIRE(caret.size() >= 1);
        CHECK(caret.back() == '^');
        CHECK(caret.find_first_not_of(' ') == caret.size() - 1);
        REQUIRE(caret.size() - 1 < drawn.size());
        CHECK(drawn[caret.size() - 1] == input[position]);
        if (length <= umpire::ParseError::kShownWidth) {
            CHECK(drawn == input);
        } else {
            CHECK(drawn.size() <= umpire::ParseError::kShownWidth + 6);
            std::string piece = drawn;
            if (piece.rfind("...", 0) == 0) piece.erase(0, 3);
            if (piece.size() >= 3 && piece.compare(piece.size() - 3, 3, "...") == 0) piece.erase(piece.size() - 3);
            CHECK(input.find(piece) != std::string::npos);
            // The window is full width wherever the bad character is, also near the input's end.
            CHECK(piece.size() == umpire::ParseError::kShownWidth);
            CHECK(what.find("(" + std::to_string(length) + " characters)") != std::string::npos);
        }
    }
    // Cut off a character's bytes never: the message stays UTF-8.
    std::string accents;
    for (int i = 0; i < 200; ++i) accents += "\xc3\xa9";  // e-acute
    for (std::size_t position : {0, 1, 37, 101, 200, 399}) {
        const std::string what = umpire::ParseError("hex", accents, position, "p").what();
        CHECK(umpire::first_bad_utf8(what) == std::string::npos);
    }
}
