#include "core/hex/AslName.hpp"

#include "core/Error.hpp"

namespace umpire::hex {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

[[noreturn]] void fail(std::string_view text, std::size_t at, const std::string& problem) {
    throw ParseError("hex", std::string(text), at, problem);
}

// Reads a run of at most `max_digits` digits at `pos` as a number with no leading zero (except
// "0" itself). Returns the value and advances pos.
int read_number(std::string_view text, std::size_t& pos, int max_digits, const char* what) {
    const std::size_t start = pos;
    int value = 0;
    while (pos < text.size() && is_digit(text[pos])) {
        if (static_cast<int>(pos - start) == max_digits)
            fail(text, pos, std::string(what) + " number has too many digits");
        value = value * 10 + (text[pos] - '0');
        ++pos;
    }
    if (pos - start > 1 && text[start] == '0')
        fail(text, start, std::string(what) + " number has a leading zero");
    return value;
}

std::string describe(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x21 && u < 0x7f) return std::string("'") + c + "'";
    if (c == ' ') return "a space";
    static const char hex_digits[] = "0123456789abcdef";
    return std::string("byte 0x") + hex_digits[u >> 4] + hex_digits[u & 15];
}

}  // namespace

std::string column_letters(int column) {
    if (column < 0 || column >= 52)
        throw RuleError("hex column index " + std::to_string(column) + " is not 0..51 (A..ZZ)");
    const char letter = static_cast<char>('A' + column % 26);
    return column < 26 ? std::string(1, letter) : std::string(2, letter);
}

// Grammar: [board digits] letter [same letter] row-digits, nothing else. The board number is
// optional, so the first character decides which part we are in.
AslName parse_asl_name(std::string_view text, const BoardSize& size) {
    if (text.empty()) fail(text, 0, "empty hex name (expected e.g. 21K8 or K8)");
    AslName out;
    std::size_t pos = 0;

    if (is_digit(text[0])) {
        out.board = read_number(text, pos, 4, "board");
        if (out.board == 0) fail(text, 0, "board numbers start at 1");
        if (pos == text.size()) fail(text, pos, "expected a column letter after the board number");
    }

    const std::size_t column_at = pos;
    const char first = text[pos];
    if (is_lower(first))
        fail(text, pos, "column letters are upper case ('" + std::string(1, char(first - 32)) +
                            "', not '" + std::string(1, first) + "')");
    if (!is_upper(first)) fail(text, pos, "expected a column letter A..Z, not " + describe(first));
    ++pos;
    out.column = first - 'A';
    if (pos < text.size() && (is_upper(text[pos]) || is_lower(text[pos]))) {
        if (text[pos] != first)
            fail(text, pos, "mixed column letters; a double column repeats one letter (AA..GG)");
        out.column += 26;
        ++pos;
        if (pos < text.size() && (is_upper(text[pos]) || is_lower(text[pos])))
            fail(text, pos, "too many column letters (at most two, e.g. GG)");
    }
    if (out.column >= size.columns)
        fail(text, column_at, "column " + column_letters(out.column) + " is beyond " +
                                  column_letters(size.columns - 1) + ", the board's last column");

    if (pos == text.size()) fail(text, pos, "expected a row number after the column");
    if (!is_digit(text[pos])) fail(text, pos, "expected a row number, not " + describe(text[pos]));
    const std::size_t row_at = pos;
    out.row = read_number(text, pos, 3, "row");
    if (out.row < size.first_row || out.row > size.last_row)
        fail(text, row_at, "row " + std::to_string(out.row) + " is off the board (rows " +
                               std::to_string(size.first_row) + ".." +
                               std::to_string(size.last_row) + ")");
    if (pos != text.size())
        fail(text, pos, "unexpected " + describe(text[pos]) + " after the row number");
    return out;
}

std::string to_string(const AslName& name) {
    return (name.board != 0 ? std::to_string(name.board) : std::string()) +
           column_letters(name.column) + std::to_string(name.row);
}

Hex local_hex(int column, int row) {
    // (c - (c & 1)) / 2 is floor(c / 2) for negative columns too (two's complement & 1).
    return {column, row - (column - (column & 1)) / 2};
}

AslName local_name(Hex h) { return {0, h.q, h.r + (h.q - (h.q & 1)) / 2}; }

}  // namespace umpire::hex
