// Output of the odds engine for people and tools: a text table, a JSON document and an SVG bar
// chart, for one Result or for a Comparison. No Lua here; the CLI picks one by its flags.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "core/odds/Comparison.hpp"
#include "core/odds/Result.hpp"

namespace umpire::odds {

// Columns: outcome, exact fraction and percentage (exact), or estimate +- 95% half-width and
// the interval (Monte Carlo); then a line naming the method with paths or samples, and the note.
std::string format_table(const Result& result);
// Columns: outcome, each side's probability, the difference (second - first) in percentage points.
std::string format_table(const Comparison& comparison);

// {"method", "paths"|"samples"+"seed"+"threads", "note"?, "outcomes": [{"key", "outcome",
// "display", "probability", "exact"? (fraction text), "count"?, "interval"? [low, high],
// "half_width"?}]}. Outcomes keep their JSON types (numbers, strings, booleans, null, objects).
nlohmann::json to_json(const Result& result);
// {"first": {label, method, paths, samples}, "second": {...}, "exact", "rows": [{"key",
// "outcome", "display", "first", "second", "difference", "exact"?: {first, second, difference}}]}
nlohmann::json to_json(const Comparison& comparison);
// The JSON value of an outcome.
nlohmann::json to_json(const Outcome& outcome);

// One bar per outcome (two side by side per outcome for a comparison).
std::string to_svg(const Result& result, const std::string& title = "");
std::string to_svg(const Comparison& comparison, const std::string& title = "");

}  // namespace umpire::odds
