#include "core/bus/JournalEntry.hpp"

#include <algorithm>
#include <iterator>
#include <limits>

#include "core/Error.hpp"

namespace umpire::bus {

using Kind = JournalEntry::Kind;

const char* kind_name(Kind k) {
    switch (k) {
        case Kind::roll: return "roll";
        case Kind::modifier: return "modifier";
        case Kind::state: return "state";
        case Kind::result: return "result";
        case Kind::cite: return "cite";
        case Kind::event: return "event";
        case Kind::note: return "note";
    }
    return "?";
}

Kind kind_from_name(const std::string& s) {
    for (Kind k : {Kind::roll, Kind::modifier, Kind::state, Kind::result, Kind::cite, Kind::event,
                   Kind::note})
        if (s == kind_name(k)) return k;
    throw ParseError("journal entry kind", s, 0,
                     "expected roll, modifier, state, result, cite, event or note");
}

void to_json(nlohmann::json& j, const JournalEntry& e) {
    j = nlohmann::json{{"seq", e.seq},
                       {"kind", kind_name(e.kind)},
                       {"depth", e.depth},
                       {"turn", e.context.turn},
                       {"player", e.context.player},
                       {"phase", e.context.phase},
                       {"citation", e.citation},
                       {"text", e.text},
                       {"data", e.data.is_null() ? nlohmann::json::object() : e.data}};
}

void from_json(const nlohmann::json& j, JournalEntry& e) {
    auto need = [&](const char* key, bool ok) {
        if (!ok)
            throw ParseError("journal entry", j.dump(), 0,
                             std::string("missing or mistyped \"") + key + "\"");
    };
    need("", j.is_object());
    // A journal is untrusted input: a field this version does not know is refused, not ignored
    // (a typo, or a newer format, would otherwise replay as something else).
    for (auto it = j.begin(); it != j.end(); ++it) {
        static const char* const kKnown[] = {"seq", "kind", "depth", "turn", "player", "phase", "citation", "text", "data"};
        if (std::none_of(std::begin(kKnown), std::end(kKnown), [&](const char* k) { return it.key() == k; }))
            throw ParseError("journal entry", it.key(), 0,
                             "unknown field (an entry has seq, kind, depth, turn, player, phase, citation, text, data)");
    }
    // Hand-edited or foreign JSON may hold 9 as a signed integer; any non-negative one is fine.
    need("seq", j.contains("seq") && j.at("seq").is_number_integer() &&
                    (j.at("seq").is_number_unsigned() || j.at("seq").get<std::int64_t>() >= 0));
    need("kind", j.contains("kind") && j.at("kind").is_string());
    // In range too: read into an int or an int64 out of range, a number was shown as another
    // (a depth of 99999999999999 as "expected 276447231").
    const auto fits = [&](const char* key, std::int64_t least, std::int64_t most) {
        if (!j.contains(key) || !j.at(key).is_number_integer()) return false;
        if (j.at(key).is_number_unsigned()) return j.at(key).get<std::uint64_t>() <= static_cast<std::uint64_t>(most);
        const std::int64_t n = j.at(key).get<std::int64_t>();
        return n >= least && n <= most;
    };
    need("depth", fits("depth", 0, std::numeric_limits<int>::max()));
    need("turn", fits("turn", std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()));
    for (const char* k : {"player", "phase", "citation", "text"})
        need(k, j.contains(k) && j.at(k).is_string());
    need("data", j.contains("data") && j.at("data").is_object());
    e.seq = j.at("seq").get<std::uint64_t>();
    e.kind = kind_from_name(j.at("kind").get<std::string>());
    e.depth = j.at("depth").get<int>();
    e.context.turn = j.at("turn").get<std::int64_t>();
    e.context.player = j.at("player").get<std::string>();
    e.context.phase = j.at("phase").get<std::string>();
    e.citation = j.at("citation").get<std::string>();
    e.text = j.at("text").get<std::string>();
    e.data = j.at("data");
}

}  // namespace umpire::bus
