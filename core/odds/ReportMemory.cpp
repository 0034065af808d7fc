// report_bytes (Report.hpp): what build_report and a writer will hold, worked out from the results
// before either runs. Each figure is what the structure allocates under glibc's malloc (a block
// is rounded up to 16 bytes with 8 of header, 32 at least), counted per row:
//   - a table row: the ReportRow, its key text, its cells (each with three GMP fractions of two
//     limb blocks each), and the look-ups make_table builds (a hash entry per side and one for
//     the union), with the rows vector's old buffer while it doubles;
//   - a field's marginal: per distinct value, an entry of each side's marginal Result (a new
//     Outcome of the value, in a map while it is summed), and a row of its table;
//   - JSON: per row an object of five members (map nodes of 96 bytes, and one more to spare), the key, the outcome as
//     an object of its fields and its display text, and per side a cell object of up to eight
//     members with fraction texts; then the dumped text, about the document's length in text;
//   - text or SVG: per row its cells as strings and the display, laid out into lines; rows
//     folded as rare (below `fold_below` on their side) are not written.
// A comparison's rows are counted once per side (the union is at most the sum), so its estimate
// may be up to about twice what it holds; never less.
#include "core/odds/Report.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <unordered_map>

namespace umpire::odds {

namespace {

constexpr std::size_t kCellBytes = sizeof(ReportCell) + 6 * 32;
constexpr std::size_t kFractionTextBytes = 3 * 48;  // at_least, at_most, exact as text

// A table row of `sides` sides and key length `key`, with make_table's look-ups.
std::size_t row_bytes(std::size_t key, std::size_t sides) {
    return 2 * sizeof(ReportRow) + key + 32 + sides * (kCellBytes + 64) + 64;
}

// What a writer makes of one row: JSON's members and text, or text's cells and line. `fraction`:
// the length of an exact cell's fraction text (0 for Monte Carlo), as the exact value and the two
// tails (whose denominators are taken as twice as long) in the document and again in its text.
std::size_t written_row_bytes(std::size_t key, std::size_t display, std::size_t fields, std::size_t sides,
                              std::size_t fraction, bool json) {
    if (json)
        return 6 * 96 + 2 * key + display + 48 + fields * (96 + 64) +
               sides * (8 * 96 + 16 + 3 * 48 + 400 + 2 * 5 * fraction) + 2 * (key + display) + 64;
    return 3 * display + 120 + sides * (200 + 3 * fraction);
}

// The length of an exact probability's fraction text ("1/36"), 0 for a Monte Carlo estimate.
std::size_t fraction_length(const Result& side, const OutcomeStats& o) {
    if (!side.is_exact()) return 0;
    return mpz_sizeinbase(o.exact.get_num_mpz_t(), 10) + mpz_sizeinbase(o.exact.get_den_mpz_t(), 10) + 2;
}

}  // namespace

std::size_t report_bytes(const std::vector<const Result*>& sides, bool json, double fold_below) {
    const std::size_t n_sides = sides.size();
    // Each field's distinct values over the sides, by the hash of their key texts (a collision
    // under-counts by one value in 2^64; the set is freed before the report is built).
    std::map<std::string, std::unordered_map<std::size_t, std::size_t>> values;  // field -> hash -> key size
    std::size_t bytes = 4096, longest_fraction = 0;
    for (const Result* side : sides)
        for (const auto& o : side->outcomes) {
            const std::size_t key = o.key.capacity() + 1;
            const std::size_t display = key;  // the display text is no longer than the key
            const std::size_t fields = o.outcome.is_table() ? o.outcome.fields().size() : 0;
            const std::size_t fraction = fraction_length(*side, o);
            longest_fraction = std::max(longest_fraction, fraction);
            bytes += row_bytes(key, n_sides);
            // Text folds a row rare on every side into one line: one counted per side is written.
            if (json || o.probability >= fold_below)
                bytes += written_row_bytes(key, display, fields, n_sides, fraction, json);
            if (fields == 0) continue;
            for (const auto& [name, value] : o.outcome.fields()) {
                const std::string value_key = scalar_key(value);
                values[name].emplace(std::hash<std::string>{}(value_key), value_key.size() + 1);
            }
        }
    // A field's marginal: per distinct value, its entry in each side's marginal Result (a new
    // Outcome, and the map node project() sums it in), its row and what the writer makes of it.
    for (const auto& [name, distinct] : values) {
        bytes += 4096;
        for (const auto& [hash, key] : distinct) {
            const std::size_t marginal = result_entry_bytes(key) + 160 + 2 * key + 96 + key + sizeof(mpq_class) + 64;
            bytes += n_sides * marginal + row_bytes(key, n_sides) +
                     written_row_bytes(key, key, 0, n_sides, longest_fraction, json);
        }
    }
    return bytes;
}

}  // namespace umpire::odds
