#include "core/bus/Modifier.hpp"

#include "core/Error.hpp"

namespace umpire::bus {

std::string signed_string(std::int64_t value) {
    std::string s = std::to_string(value);  // "0" and "-1" already read as the rulebook writes them
    // insert, not "+" + s: GCC 12 at -O3 reports a false -Wrestrict for the latter (PR 105329).
    if (value > 0) s.insert(s.begin(), '+');
    return s;
}

std::string render(const Modifier& m) {
    std::string out = signed_string(m.value);
    if (!m.source.empty()) out += " [" + m.source + "]";
    return out;
}

void to_json(nlohmann::json& j, const Modifier& m) {
    j = nlohmann::json{{"value", m.value},
                       {"kind", m.kind},
                       {"source", m.source},
                       {"citation", m.citation},
                       {"note", m.note}};
}

void from_json(const nlohmann::json& j, Modifier& m) {
    if (!j.is_object() || !j.contains("value") || !j.at("value").is_number_integer())
        throw ParseError("modifier", j.dump(), 0, "expected an object with an integer \"value\"");
    m.value = j.at("value").get<std::int64_t>();
    m.kind = j.value("kind", "");
    m.source = j.value("source", "");
    m.citation = j.value("citation", "");
    m.note = j.value("note", "");
}

}  // namespace umpire::bus
