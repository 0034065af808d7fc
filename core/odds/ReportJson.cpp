// The JSON half of Report.hpp. Exact probabilities go out as fraction text ("1/36") because a
// double cannot hold 1/6^40 exactly and JSON has no rationals; "probability" is the double.
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

nlohmann::json summary(const Result& r, const std::string& label) {
    nlohmann::json j;
    if (!label.empty()) j["label"] = label;
    j["method"] = r.method_name();
    if (r.is_exact()) {
        j["paths"] = r.paths;
        if (r.truncated > 0) j["truncated"] = r.truncated.get_str();
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
}  // namespace

nlohmann::json to_json(const Outcome& outcome) {
    if (!outcome.is_table()) return scalar_json(outcome.scalar());
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [name, value] : outcome.fields()) j[name] = scalar_json(value);
    return j;
}

nlohmann::json to_json(const Result& r) {
    nlohmann::json j = summary(r, "");
    nlohmann::json outcomes = nlohmann::json::array();
    for (const auto& o : r.outcomes) {
        nlohmann::json e;
        e["key"] = o.key;
        e["outcome"] = to_json(o.outcome);
        e["display"] = o.outcome.display();
        e["probability"] = o.probability;
        if (r.is_exact()) {
            e["exact"] = o.exact.get_str();
        } else {
            e["count"] = o.count;
            e["interval"] = {o.low, o.high};
            e["half_width"] = o.half_width();
        }
        outcomes.push_back(std::move(e));
    }
    j["outcomes"] = std::move(outcomes);
    return j;
}

nlohmann::json to_json(const Comparison& c) {
    nlohmann::json j;
    j["first"] = summary(c.first, c.first_label);
    j["second"] = summary(c.second, c.second_label);
    j["exact"] = c.is_exact();
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : c.rows) {
        nlohmann::json e;
        e["key"] = row.key;
        e["outcome"] = to_json(row.outcome);
        e["display"] = row.outcome.display();
        e["first"] = row.first_value;
        e["second"] = row.second_value;
        e["difference"] = row.difference_value;
        if (row.is_exact)
            e["exact"] = {{"first", row.first.get_str()},
                          {"second", row.second.get_str()},
                          {"difference", row.difference.get_str()}};
        rows.push_back(std::move(e));
    }
    j["rows"] = std::move(rows);
    return j;
}

}  // namespace umpire::odds
