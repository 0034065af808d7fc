// `umpire sweep`: an odds script over a grid of parameters (umpire.args), exact at every cell,
// with the same engine and report as `umpire odds`. A grid is a list of axes ("range=1..12",
// "cover=0,1,2", "ruleset=rulesets/asl,rulesets/asl-house-mg"); its cells are numbered in row-major
// order (the last axis fastest), so a shard ("2/4": the cells whose index % 4 == 1) is a stable
// subset, and the merge of every shard's JSON Lines is byte for byte the unsharded output.
#pragma once
#include <cstddef>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/OddsRunner.hpp"
#include "core/odds/SvgHeatMap.hpp"

namespace umpire::sweep {

using Value = std::variant<bool, double, std::string>;

// A parameter's value as `--set NAME=VALUE` and a sweep axis read it: true or false, a finite
// number written whole with nothing around it, else the text. A space before the number makes
// it text, as one after it always did (strtod skips leading space: ' 5' read as 5, '5 ' as text).
Value read_value(const std::string& text);

struct Axis {
    std::string name;
    std::vector<Value> values;
    std::vector<std::string> texts;  // each value as written on the command line
};
// "name=A..B" (integers, inclusive; "A..B:STEP"), or "name=v1,v2,..." (each read as --set reads a
// value). The axis `ruleset` names the ruleset each cell loads. ParseError on anything else.
Axis parse_axis(const std::string& text);

struct Grid {
    std::vector<Axis> axes;
    std::size_t size() const;
    // The value index on each axis of cell `index`.
    std::vector<std::size_t> coordinates(std::size_t index) const;
    // The grid as given ("range=1..12 cover=0,1,2"): every line of a sweep carries it, so a merge
    // refuses shards of different grids.
    std::string text() const;
};

// "I/N" with 1 <= I <= N: the cells whose index % N == I - 1. ParseError otherwise.
struct Shard {
    std::size_t index = 1, count = 1;
    bool has(std::size_t cell) const { return cell % count == index - 1; }
};
Shard parse_shard(const std::string& text);

struct Request {
    odds_runner::Request odds;  // the script, rulesets, budget; args and rulesets set per cell
    Grid grid;
    Shard shard;
    std::function<void(std::size_t done, std::size_t total)> progress;
};

// One JSON object per cell of the shard, in cell order: {"cell", "cells", "grid", "args",
// "report"} where "report" is the `umpire odds --json` document of the cell. RuleError if a cell is
// not exact within the budget (a sweep compares exact numbers).
std::vector<nlohmann::json> run(const Request& request);

// Joins shards' lines: every cell of the grid exactly once, all of one grid; Error otherwise.
std::vector<nlohmann::json> merge(std::vector<nlohmann::json> lines);
// Reads JSON Lines; Error naming file:line on a bad line.
std::vector<nlohmann::json> read_lines(const std::string& file);

std::string to_jsonl(const std::vector<nlohmann::json>& lines);
// One row per (cell, table, figure, outcome): cell, each axis, table ("outcome" or a field),
// figure ("P", "at_least", "mean", "sd"), outcome, exact, value.
std::string to_csv(const std::vector<nlohmann::json>& lines);

// What a heat map shows: "FIELD=VALUE" (the probability of a field's value, or of an outcome with
// FIELD "outcome"), "at_least:FIELD=N", or "mean:FIELD" ("mean" for a numeric outcome); with the
// axes for x and y. Every other axis must have one value, except `ruleset` with two: then the map
// has a panel per ruleset and one of their difference.
struct Heat {
    std::string what, x, y;
};
odds::HeatMap heat_map(const std::vector<nlohmann::json>& lines, const Heat& heat);

}  // namespace umpire::sweep
