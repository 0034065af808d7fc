// What `umpire odds` reports, in one shape whether it ran once or compared two rulesets: a plain
// run is the one-side case of a comparison. build_report() gathers the sides' joint outcomes, each
// field's marginal and, for numbers, the figures players ask for (mean, standard deviation, "at
// least N", "at most N"); the three writers below render it, and a command builds only the one
// it prints (docs/odds-report.md, schemas/odds-report.schema.json).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/odds/Result.hpp"

namespace umpire::odds {

// One side's probability of one outcome, and for a numeric table its tails: P(X >= x), P(X <= x).
struct ReportCell {
    mpq_class exact, at_least, at_most;  // exact sides only (else 0)
    double probability = 0, at_least_value = 0, at_most_value = 0;
    std::uint64_t count = 0;  // Monte Carlo: samples that gave this outcome
    double low = 0, high = 0; // Monte Carlo: 95% Wilson interval
};

struct ReportRow {
    Outcome outcome;
    std::string key;
    std::vector<ReportCell> sides;  // one per side, in the report's side order
};

// The moments of a numeric distribution (exact sides: exact mean and variance; sd is the
// double square root of the exact variance, which is irrational in general).
struct ReportMoments {
    bool is_exact = false;
    mpq_class mean, variance;
    double mean_value = 0, variance_value = 0, sd = 0;
};

// A distribution of outcomes on every side: the joint outcomes, or one field's marginal.
// `numeric`: every outcome on every side is a number, so tails and moments are given.
struct ReportTable {
    bool numeric = false;
    std::vector<ReportRow> rows;         // the union of the sides' outcomes, in outcome order
    std::vector<ReportMoments> moments;  // one per side if numeric, else empty
};

struct ReportSide {
    std::string label;  // "original", a ruleset, or "" for a plain run without one
    Result result;      // how it was obtained (method, paths/samples, note, given, truncated)
};

struct Report {
    std::string title;
    std::vector<ReportSide> sides;  // one (a plain run) or two (--compare: original, other)
    ReportTable outcomes;           // the joint outcomes as the script returned them
    std::vector<std::pair<std::string, ReportTable>> fields;  // each field's marginal, by name
    bool is_exact() const;
};

// Builds the report of one or two results. Fields are the union of the sides' table fields.
Report build_report(std::string title, std::vector<ReportSide> sides);

// The C++ memory that reporting these results takes, as a MemoryBudget counts it (an estimate,
// never under what is held: tests/core/odds/test_memory_budget.cpp measures it with mallinfo2):
// build_report's tables, the joint outcomes' and each field's marginal (their Results, rows and
// look-ups), and what the writer makes of them: with `json`, to_json's document and its dumped
// text; otherwise format_text's or to_svg's, of the rows not folded (TextOptions::fold_below).
// The results themselves are not counted (result_bytes). Known before anything is built, so a
// report that would pass the cap is refused before it takes the memory.
std::size_t report_bytes(const std::vector<const Result*>& sides, bool json, double fold_below = 0);

// Text options: `digits` < 0 prints a fraction as a fraction when it is short (at most
// kShortFraction characters) and as a decimal otherwise; digits >= 0 prints every probability as
// a decimal with that many digits after the point. Rows whose probability is below `fold_below`
// on every side are folded into one row (the JSON keeps every row).
struct TextOptions {
    int digits = -1;
    double fold_below = 1e-4;
};
constexpr std::size_t kShortFraction = 13;

std::string format_text(const Report& report, const TextOptions& options = {});
// The label each row of `table` is shown by in the text and the SVG: its display() ("5", "hit",
// "a=1 b=2"), except where two rows would read alike (the number 5 and the string "5", true and
// "true", the tables {a="1 b=2"} and {a=1,b=2}): those rows are shown by their keys, which tell
// them apart (strings quoted, tables in braces). Rows that read alike nowhere else keep the plain
// form, so every report without such a pair reads as before; the JSON gives both forms always.
std::vector<std::string> row_labels(const ReportTable& table);
// The JSON document (schemas/odds-report.schema.json); every row, exact values as fraction text.
nlohmann::json to_json(const Report& report);
// The JSON value of an outcome.
nlohmann::json to_json(const Outcome& outcome);
// A bar chart of the joint outcomes with one chart per field beside it; tails folded as in text.
std::string to_svg(const Report& report, const TextOptions& options = {});

}  // namespace umpire::odds
