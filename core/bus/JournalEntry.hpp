// One line of the journal: a roll, a modifier sum, a state change, a result, a citation, an
// event or a note, stamped with its sequence number and the turn/player/phase it happened in.
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace umpire::bus {

struct JournalEntry {
    enum class Kind { roll, modifier, state, result, cite, event, note };

    // Where in the game an entry was made. TurnSequence::context() produces it.
    struct Context {
        std::int64_t turn = 0;  // 0 before the game starts
        std::string player;     // "" when no player is active (e.g. Bolt Action turn end)
        std::string phase;      // the phase abbreviation ("MPh"), "" before the game starts
        bool operator==(const Context&) const = default;
    };

    std::uint64_t seq = 0;  // 1-based, consecutive within a journal
    Kind kind = Kind::note;
    int depth = 0;          // nesting (event handlers, sub-steps): indentation in --explain
    Context context;
    std::string citation;   // rule section ("A9.7"), "" when none
    std::string text;       // the human line (what a roll was for, the cited text, ...)
    nlohmann::json data;    // kind-specific fields, see Journal; always an object

    bool operator==(const JournalEntry&) const = default;
};

const char* kind_name(JournalEntry::Kind k);
// ParseError on an unknown name.
JournalEntry::Kind kind_from_name(const std::string& s);

// Fixed shape: every key is always present, so equal entries serialise to equal bytes.
// {"citation","data","depth","kind","phase","player","seq","text","turn"}
void to_json(nlohmann::json& j, const JournalEntry& e);
void from_json(const nlohmann::json& j, JournalEntry& e);

}  // namespace umpire::bus
