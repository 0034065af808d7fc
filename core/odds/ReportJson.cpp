// The JSON half of Report.hpp (docs/odds-report.md, schemas/odds-report.schema.json). Exact
// probabilities go out as fraction text ("1/36") beside the double, because a double cannot hold
// 1/6^40 exactly and JSON has no rationals. A plain run and a comparison have one shape: a list of
// sides, and per outcome a list of cells in side order.
#include <cmath>

#include "core/odds/Report.hpp"

namespace umpire::odds {

namespace {
nlohmann::json scalar_json(const Scalar& v) {
    switch (v.index()) {
        case 0: return nullptr;
        case 1: return std::get<bool>(v);
        case 2: {
            const double x = std::get<double>(v);
            if (!std::isfinite(x)) return scalar_key(v);  // JSON has no nan/inf
            if (std::fabs(x) < 9007199254740992.0 && x == std::trunc(x))
                return static_cast<std::int64_t>(x);
            return x;
        }
        default: return std::get<std::string>(v);
    }
}

nlohmann::json side_json(const ReportSide& side) {
    const Result& r = side.result;
    nlohmann::json j;
    j["label"] = side.label;
    j["method"] = r.method_name();
    if (r.is_exact()) {
        j["paths"] = r.paths;
        j["truncated"] = r.truncated.get_str();
    } else {
        j["samples"] = r.samples;
        j["seed"] = r.seed;
        j["threads"] = r.threads;
        j["widest_half_width"] = r.widest_half_width();
    }
    if (!r.condition.empty()) j["given"] = r.condition;
    if (!r.note.empty()) j["note"] = r.note;
    return j;
}

nlohmann::json cell_json(const ReportCell& c, bool exact, bool numeric) {
    nlohmann::json j;
    j["probability"] = c.probability;
    if (exact) {
        j["exact"] = c.exact.get_str();
    } else {
        j["count"] = c.count;
        j["interval"] = {c.low, c.high};
    }
    if (numeric) {
        j["at_least"] = c.at_least_value;
        j["at_most"] = c.at_most_value;
        if (exact) {
            j["at_least_exact"] = c.at_least.get_str();
            j["at_most_exact"] = c.at_most.get_str();
        }
    }
    return j;
}

nlohmann::json moments_json(const ReportMoments& m) {
    nlohmann::json j;
    j["mean"] = m.mean_value;
    j["variance"] = m.variance_value;
    j["sd"] = m.sd;
    if (m.is_exact) {
        j["mean_exact"] = m.mean.get_str();
        j["variance_exact"] = m.variance.get_str();
    }
    return j;
}

// {"numeric", "outcomes": [...], "moments"?: [...], "moments_difference"?}
nlohmann::json table_json(const Report& report, const ReportTable& table) {
    std::vector<bool> exact;
    for (const auto& s : report.sides) exact.push_back(s.result.is_exact());
    const bool two = report.sides.size() == 2, both_exact = report.is_exact();
    nlohmann::json j;
    j["numeric"] = table.numeric;
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : table.rows) {
        nlohmann::json e;
        e["key"] = row.key;
        e["outcome"] = to_json(row.outcome);
        e["display"] = row.outcome.display();
        nlohmann::json cells = nlohmann::json::array();
        for (std::size_t i = 0; i < row.sides.size(); ++i)
            cells.push_back(cell_json(row.sides[i], exact[i], table.numeric));
        e["sides"] = std::move(cells);
        if (two) {
            e["difference"] = {{"probability", row.sides[1].probability - row.sides[0].probability}};
            if (both_exact) {
                const mpq_class d = row.sides[1].exact - row.sides[0].exact;
                e["difference"] = {{"probability", d.get_d()}, {"exact", d.get_str()}};
            }
        }
        rows.push_back(std::move(e));
    }
    j["outcomes"] = std::move(rows);
    if (table.numeric) {
        nlohmann::json m = nlohmann::json::array();
        for (const auto& side : table.moments) m.push_back(moments_json(side));
        j["moments"] = std::move(m);
        if (two) {
            const auto& a = table.moments[0];
            const auto& b = table.moments[1];
            j["moments_difference"] = {{"mean", b.mean_value - a.mean_value}};
            if (both_exact) {
                const mpq_class d = b.mean - a.mean;
                j["moments_difference"] = {{"mean", d.get_d()}, {"mean_exact", d.get_str()}};
            }
        }
    }
    return j;
}
}  // namespace

nlohmann::json to_json(const Outcome& outcome) {
    if (!outcome.is_table()) return scalar_json(outcome.scalar());
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [name, value] : outcome.fields()) j[name] = scalar_json(value);
    return j;
}

nlohmann::json to_json(const Report& report) {
    nlohmann::json j;
    j["version"] = 1;
    j["title"] = report.title;
    j["exact"] = report.is_exact();
    nlohmann::json sides = nlohmann::json::array();
    for (const auto& s : report.sides) sides.push_back(side_json(s));
    j["sides"] = std::move(sides);
    j.update(table_json(report, report.outcomes));
    j["fields"] = nlohmann::json::object();
    for (const auto& [name, table] : report.fields) j["fields"][name] = table_json(report, table);
    return j;
}

}  // namespace umpire::odds
