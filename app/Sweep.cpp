#include "app/Sweep.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>

#include "core/Error.hpp"
#include "core/odds/Report.hpp"

namespace umpire::sweep {

Value read_value(const std::string& text) {
    if (text == "true" || text == "false") return text == "true";
    if (text.empty() || std::isspace(static_cast<unsigned char>(text.front()))) return text;
    char* end = nullptr;
    const double x = std::strtod(text.c_str(), &end);
    if (end == text.c_str() + text.size() && std::isfinite(x)) return x;
    return text;
}

namespace {

nlohmann::json value_json(const Value& v) {
    if (const bool* b = std::get_if<bool>(&v)) return *b;
    if (const double* x = std::get_if<double>(&v)) {
        if (std::fabs(*x) < 9007199254740992.0 && *x == std::trunc(*x)) return static_cast<std::int64_t>(*x);
        return *x;
    }
    return std::get<std::string>(v);
}

// RFC 4180: quote a field holding a comma, a quote or a line break.
std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// A text cell (a name, a string value or outcome): a spreadsheet opening the CSV reads a cell
// that starts with =, +, -, @, a tab or a carriage return as a formula, so a script's outcome
// "=HYPERLINK(...)" (or "-1+1") would run as one (CSV injection). As OWASP advises, such a cell
// gets a leading single quote, which spreadsheets take as "this is text" and do not show. Numbers
// are written by csv_field alone and stay numbers: -3 is a number, the string "-3" is '-3.
std::string csv_text(const std::string& s) {
    if (!s.empty() && std::string_view("=+-@\t\r").find(s[0]) != std::string_view::npos) return csv_field("'" + s);
    return csv_field(s);
}

// A JSON scalar as a CSV cell: strings as text cells, others (numbers, booleans) as JSON.
std::string csv_value(const nlohmann::json& v) { return v.is_string() ? csv_text(v.get<std::string>()) : csv_field(v.dump()); }

Grid grid_of(const nlohmann::json& line) {
    Grid g;
    for (const auto& a : line.at("grid")) g.axes.push_back(parse_axis(a.get<std::string>()));
    return g;
}

}  // namespace

Axis parse_axis(const std::string& text) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ParseError("grid axis", text, eq == 0 ? 0 : text.size(), "expected name=A..B or name=v1,v2,...");
    Axis axis;
    axis.name = text.substr(0, eq);
    const std::string spec = text.substr(eq + 1);
    if (const auto dots = spec.find(".."); dots != std::string::npos) {
        // A..B[:STEP], integers within 2^53 (the values are kept as doubles, exact there). Before,
        // strtol's overflow went unseen ("99999999999999999999" read as 2^63 - 1), B - A could
        // overflow, and a range ending near 2^63 - 1 stepped past it, wrapped, and grew its list
        // without end (9 GB in a minute).
        constexpr long kExact = 1L << 53;
        const auto whole = [&](const char* at, std::size_t column, const char* what, char** end) {
            errno = 0;
            const long v = std::strtol(at, end, 10);
            if (*end != at && (errno == ERANGE || v > kExact || v < -kExact))
                throw ParseError("grid axis", text, column, std::string(what) + " out of range (an integer from -2^53 to 2^53)");
            return v;
        };
        char* end = nullptr;
        const long from = whole(spec.c_str(), eq + 1, "A", &end);
        if (dots == 0 || end != spec.c_str() + dots) throw ParseError("grid axis", text, eq + 1, "expected an integer before '..'");
        const char* to_at = spec.c_str() + dots + 2;
        const long to = whole(to_at, eq + 1 + dots + 2, "B", &end);
        if (end == to_at) throw ParseError("grid axis", text, eq + 1 + dots + 2, "expected an integer after '..'");
        long step = 1;
        if (*end == ':') {
            const char* step_at = end + 1;
            const std::size_t step_column = eq + 1 + static_cast<std::size_t>(step_at - spec.c_str());
            step = whole(step_at, step_column, "STEP", &end);
            if (end == step_at || step <= 0) throw ParseError("grid axis", text, step_column, "expected a positive step after ':'");
        }
        if (*end != '\0')
            throw ParseError("grid axis", text, eq + 1 + static_cast<std::size_t>(end - spec.c_str()), "unexpected text");
        if (to < from) throw ParseError("grid axis", text, eq + 1, "an empty range (B < A)");
        const long last = (to - from) / step;  // the index of the last value: |to - from| <= 2^54
        if (last >= 100000) throw ParseError("grid axis", text, eq + 1, "more than 100000 values");
        for (long i = 0; i <= last; ++i) {
            const long v = from + i * step;
            axis.values.push_back(static_cast<double>(v));
            axis.texts.push_back(std::to_string(v));
        }
    } else {
        std::size_t at = 0;
        while (true) {
            const auto comma = spec.find(',', at);
            const std::string item = spec.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
            if (item.empty()) throw ParseError("grid axis", text, eq + 1 + at, "an empty value");
            axis.values.push_back(read_value(item));
            axis.texts.push_back(item);
            if (comma == std::string::npos) break;
            at = comma + 1;
        }
    }
    return axis;
}

std::size_t Grid::size() const {
    // At most 10^9 cells: four axes of 100 000 values multiplied past 2^64 and wrapped, so the
    // sweep ran (and a merge expected) some other number of cells.
    constexpr std::size_t kMaxCells = 1000000000;
    std::size_t n = 1;
    for (const auto& a : axes) {
        if (!a.values.empty() && n > kMaxCells / a.values.size())
            throw ParseError("grid", text(), 0, "more than 1000000000 cells (the product of the axes' sizes)");
        n *= a.values.size();
    }
    return axes.empty() ? 0 : n;
}

std::vector<std::size_t> Grid::coordinates(std::size_t index) const {
    std::vector<std::size_t> at(axes.size());
    for (std::size_t i = axes.size(); i-- > 0;) {
        at[i] = index % axes[i].values.size();
        index /= axes[i].values.size();
    }
    return at;
}

std::string Grid::text() const {
    std::string out;
    for (const auto& a : axes) {
        out += (out.empty() ? "" : " ") + a.name + "=";
        for (std::size_t i = 0; i < a.texts.size(); ++i) out += (i ? "," : "") + a.texts[i];
    }
    return out;
}

Shard parse_shard(const std::string& text) {
    const auto slash = text.find('/');
    char* end = nullptr;
    Shard s;
    // Digits only, in range: strtoul read "-1" and 2^64 as 2^64 - 1 without a word.
    const auto digits_at = [&](std::size_t at) { return at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])); };
    errno = 0;
    s.index = std::strtoul(text.c_str(), &end, 10);
    if (slash == std::string::npos || end != text.c_str() + slash || !digits_at(0))
        throw ParseError("shard", text, 0, "expected I/N, e.g. 2/4");
    s.count = std::strtoul(text.c_str() + slash + 1, &end, 10);
    if (*end != '\0' || end == text.c_str() + slash + 1 || !digits_at(slash + 1))
        throw ParseError("shard", text, slash + 1, "expected N after '/'");
    if (errno == ERANGE) throw ParseError("shard", text, 0, "a number out of range");
    if (s.count == 0 || s.index == 0 || s.index > s.count)
        throw ParseError("shard", text, 0, "I must be between 1 and N");
    return s;
}

std::vector<nlohmann::json> run(const Request& request) {
    const Grid& grid = request.grid;
    const std::size_t total = grid.size();
    nlohmann::json grid_json = nlohmann::json::array(), axes = nlohmann::json::array();
    for (const auto& a : grid.axes) {
        std::string spec = a.name + "=";
        for (std::size_t i = 0; i < a.texts.size(); ++i) spec += (i ? "," : "") + a.texts[i];
        grid_json.push_back(spec);
        axes.push_back(a.name);
    }
    std::vector<nlohmann::json> lines;
    // The cells' runs hold their results outside the hosts, and their reports are kept until the
    // sweep ends: all charged against one cap of a host's size (core/odds/MemoryBudget.hpp).
    odds::MemoryBudget memory(request.odds.host.memory_limit);
    odds::MemoryHold reports(&memory);
    std::size_t done = 0, mine = 0;
    for (std::size_t cell = 0; cell < total; ++cell) mine += request.shard.has(cell);
    for (std::size_t cell = 0; cell < total; ++cell) {
        if (!request.shard.has(cell)) continue;
        odds_runner::Request r = request.odds;
        r.odds.monte_carlo.bounds.memory = &memory;
        const auto at = grid.coordinates(cell);
        nlohmann::json args = nlohmann::json::object();
        std::string where;
        for (std::size_t i = 0; i < grid.axes.size(); ++i) {
            const Axis& axis = grid.axes[i];
            r.host.args[axis.name] = axis.values[at[i]];
            args[axis.name] = value_json(axis.values[at[i]]);
            where += (where.empty() ? "" : " ") + axis.name + "=" + axis.texts[at[i]];
            if (axis.name == "ruleset") r.rulesets = {axis.texts[at[i]]};
        }
        odds::Result result;
        try {
            result = odds_runner::run_script(r);
        } catch (const ScriptError& e) {
            throw ScriptError("cell " + std::to_string(cell) + " (" + where + "): " + e.what());
        }
        if (!result.is_exact())
            throw RuleError("cell " + std::to_string(cell) + " (" + where + ") is not exact within --budget " +
                            std::to_string(request.odds.odds.budget) + " paths; a sweep compares exact odds (raise --budget)");
        const std::string label = r.rulesets.empty() ? "" : r.rulesets.front();
        nlohmann::json line;
        line["cell"] = cell;
        line["cells"] = total;
        line["grid"] = grid_json;
        line["axes"] = axes;
        line["args"] = std::move(args);
        try {
            odds_runner::charge_report(reports, {&result}, true, 0, odds_runner::script_label(r));
        } catch (const ScriptError& e) {
            throw ScriptError("cell " + std::to_string(cell) + " (" + where + "): " + e.what());
        }
        line["report"] = odds::to_json(odds::build_report(where, {{label, std::move(result)}}));
        lines.push_back(std::move(line));
        if (request.progress) request.progress(++done, mine);
    }
    return lines;
}

std::vector<nlohmann::json> read_lines(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw Error("cannot read " + file);
    std::vector<nlohmann::json> lines;
    std::string text;
    for (std::size_t n = 1; std::getline(in, text); ++n) {
        if (text.empty()) continue;
        try {
            lines.push_back(nlohmann::json::parse(text));
        } catch (const nlohmann::json::exception& e) {
            throw Error(file + ":" + std::to_string(n) + ": not a JSON line of `umpire sweep` (" + e.what() + ")");
        }
        const nlohmann::json& line = lines.back();
        if (!line.is_object() || !line.contains("cell") || !line.contains("grid"))
            throw Error(file + ":" + std::to_string(n) + ": not a line of `umpire sweep` (no cell or grid)");
        // The cell's number places the line (its row, its place in the heat map): a whole number
        // below the count of cells, or the line is refused here with its place. A cell of -1 was
        // read as 2^64 - 1 and merged in place of a missing cell, 1e300 was cast to an integer
        // (undefined), and a text ended in a JSON library error naming no file (session 38).
        const auto whole = [](const nlohmann::json& v) { return v.is_number_unsigned(); };
        if (!line.contains("cells") || !whole(line.at("cells")) || !whole(line.at("cell")) ||
            line.at("cell").get<std::uint64_t>() >= line.at("cells").get<std::uint64_t>())
            throw Error(file + ":" + std::to_string(n) + ": not a line of `umpire sweep`: \"cell\" must be a whole "
                        "number below \"cells\" (got cell " + line.at("cell").dump() + ", cells " +
                        (line.contains("cells") ? line.at("cells").dump() : std::string("none")) + ")");
    }
    return lines;
}

std::vector<nlohmann::json> merge(std::vector<nlohmann::json> lines) {
    if (lines.empty()) throw Error("nothing to merge: no lines");
    const nlohmann::json grid = lines.front().at("grid");
    const std::size_t total = lines.front().at("cells").get<std::size_t>();
    std::set<std::size_t> seen;
    for (const auto& l : lines) {
        if (l.at("grid") != grid || l.at("cells").get<std::size_t>() != total)
            throw Error("the shards are of different grids: " + grid.dump() + " and " + l.at("grid").dump() + " (" +
                        std::to_string(total) + " and " + l.at("cells").dump() + " cells)");
        const auto cell = l.at("cell").get<std::size_t>();
        if (!seen.insert(cell).second) throw Error("cell " + std::to_string(cell) + " is in more than one shard");
    }
    if (seen.size() != total) {
        std::string missing;
        for (std::size_t c = 0, shown = 0; c < total && shown < 10; ++c)
            if (!seen.count(c)) missing += (shown++ ? ", " : "") + std::to_string(c);
        throw Error("the shards cover " + std::to_string(seen.size()) + " of " + std::to_string(total) +
                    " cells; missing: " + missing + (total - seen.size() > 10 ? ", ..." : ""));
    }
    std::sort(lines.begin(), lines.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
        return a.at("cell").get<std::size_t>() < b.at("cell").get<std::size_t>();
    });
    return lines;
}

std::string to_jsonl(const std::vector<nlohmann::json>& lines) {
    std::string out;
    for (const auto& l : lines) out += l.dump() + "\n";
    return out;
}

std::string to_csv(const std::vector<nlohmann::json>& lines) {
    if (lines.empty()) return "";
    const auto& axes = lines.front().at("axes");
    std::string out = "cell";
    for (const auto& a : axes) out += "," + csv_text(a.get<std::string>());
    out += ",table,figure,outcome,exact,value\n";
    for (const auto& line : lines) {
        std::string head = std::to_string(line.at("cell").get<std::size_t>());
        for (const auto& a : axes) head += "," + csv_value(line.at("args").at(a.get<std::string>()));
        const auto& report = line.at("report");
        auto table = [&](const std::string& name, const nlohmann::json& t) {
            for (const auto& o : t.at("outcomes")) {
                const auto& c = o.at("sides").at(0);
                const std::string row = head + "," + csv_text(name) + ",";
                // (a number's display is its number; any other outcome's is text)
                const std::string& display = o.at("display").get_ref<const std::string&>();
                const std::string outcome = o.at("outcome").is_number() ? csv_field(display) : csv_text(display);
                out += row + "P," + outcome + "," + c.at("exact").get<std::string>() + "," + c.at("probability").dump() + "\n";
                if (c.contains("at_least_exact"))
                    out += row + "at_least," + outcome + "," + c.at("at_least_exact").get<std::string>() + "," +
                           c.at("at_least").dump() + "\n";
            }
            if (t.contains("moments")) {
                const auto& m = t.at("moments").at(0);
                out += head + "," + csv_text(name) + ",mean,," + m.at("mean_exact").get<std::string>() + "," +
                       m.at("mean").dump() + "\n";
                out += head + "," + csv_text(name) + ",sd,,," + m.at("sd").dump() + "\n";
            }
        };
        table("outcome", report);
        for (const auto& [name, t] : report.at("fields").items()) table(name, t);
    }
    return out;
}

namespace {
// The figure `what` names, in one cell's report; nullopt if that cell never has it (then 0 for a
// probability: the outcome did not occur).
std::optional<double> figure(const nlohmann::json& report, const std::string& what, bool& percent) {
    std::string spec = what, kind = "P";
    if (spec.rfind("mean:", 0) == 0 || spec == "mean") {
        kind = "mean";
        spec = spec == "mean" ? "outcome" : spec.substr(5);
    } else if (spec.rfind("at_least:", 0) == 0) {
        kind = "at_least";
        spec = spec.substr(9);
    }
    const auto eq = spec.find('=');
    const std::string field = kind == "mean" ? spec : spec.substr(0, eq);
    const nlohmann::json* table = &report;
    if (field != "outcome") {
        if (!report.at("fields").contains(field))
            throw Error("--heat " + what + ": the script returns no field '" + field + "'");
        table = &report.at("fields").at(field);
    }
    if (kind == "mean") {
        percent = false;
        if (!table->contains("moments")) throw Error("--heat " + what + ": '" + field + "' is not a number");
        return table->at("moments").at(0).at("mean").get<double>();
    }
    if (eq == std::string::npos) throw Error("--heat " + what + ": expected FIELD=VALUE, at_least:FIELD=N or mean:FIELD");
    const std::string value = spec.substr(eq + 1);
    if (kind == "at_least") {
        if (!table->value("numeric", false)) throw Error("--heat " + what + ": '" + field + "' is not a number");
        const double n = std::strtod(value.c_str(), nullptr);
        double p = 0;
        for (const auto& o : table->at("outcomes"))
            if (o.at("outcome").get<double>() >= n) p += o.at("sides").at(0).at("probability").get<double>();
        return p;
    }
    for (const auto& o : table->at("outcomes"))
        if (o.at("display").get<std::string>() == value) return o.at("sides").at(0).at("probability").get<double>();
    return 0.0;
}
}  // namespace

odds::HeatMap heat_map(const std::vector<nlohmann::json>& lines, const Heat& heat) {
    if (lines.empty()) throw Error("--heat: no cells");
    const Grid grid = grid_of(lines.front());
    auto axis_index = [&](const std::string& name, const char* flag) {
        for (std::size_t i = 0; i < grid.axes.size(); ++i)
            if (grid.axes[i].name == name) return i;
        throw Error(std::string(flag) + " " + name + ": no such axis in the grid (" + grid.text() + ")");
    };
    const std::size_t xi = axis_index(heat.x, "--x"), yi = axis_index(heat.y, "--y");
    if (xi == yi) throw Error("--x and --y name the same axis");
    std::optional<std::size_t> ruleset_axis;
    for (std::size_t i = 0; i < grid.axes.size(); ++i) {
        if (i == xi || i == yi || grid.axes[i].values.size() == 1) continue;
        if (grid.axes[i].name == "ruleset" && grid.axes[i].values.size() == 2) ruleset_axis = i;
        else
            throw Error("--heat draws one map per ruleset: the axis " + grid.axes[i].name + " has " +
                        std::to_string(grid.axes[i].values.size()) + " values (give it one, or make it --x or --y)");
    }
    odds::HeatMap map;
    map.title = heat.what + " by " + heat.x + " and " + heat.y;
    map.x_name = heat.x;
    map.y_name = heat.y;
    map.x_labels = grid.axes[xi].texts;
    map.y_labels = grid.axes[yi].texts;
    const std::size_t panels = ruleset_axis ? 2 : 1;
    const auto empty = std::vector<std::vector<std::optional<double>>>(
        map.y_labels.size(), std::vector<std::optional<double>>(map.x_labels.size()));
    for (std::size_t p = 0; p < panels; ++p)
        map.panels.push_back({ruleset_axis ? grid.axes[*ruleset_axis].texts[p] : heat.what, empty, false});
    for (const auto& line : lines) {
        const auto at = grid.coordinates(line.at("cell").get<std::size_t>());
        const std::size_t p = ruleset_axis ? at[*ruleset_axis] : 0;
        map.panels[p].values[at[yi]][at[xi]] = figure(line.at("report"), heat.what, map.percent);
    }
    if (ruleset_axis) {
        odds::HeatPanel diff{map.panels[1].title + " - " + map.panels[0].title, empty, true};
        for (std::size_t y = 0; y < map.y_labels.size(); ++y)
            for (std::size_t x = 0; x < map.x_labels.size(); ++x)
                if (map.panels[0].values[y][x] && map.panels[1].values[y][x])
                    diff.values[y][x] = *map.panels[1].values[y][x] - *map.panels[0].values[y][x];
        map.panels.push_back(std::move(diff));
    }
    return map;
}

}  // namespace umpire::sweep
