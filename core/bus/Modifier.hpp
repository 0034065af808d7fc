// A modifier: one signed integer contribution to a roll or a value, with where it comes from.
// ASL writes a DRM as "-1 [FFNAM]" and cites the rule that grants it; a Modifier carries
// exactly that, so a log line and an odds report can both say why a number is what it is.
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace umpire::bus {

struct Modifier {
    // The signed amount. DRM, to-hit and pen modifiers are whole numbers in every ruleset we
    // model; fractional quantities (Area Fire FP) are expressed as pipeline steps (halve with a
    // stated rounding), never as fractional modifiers, so that totals stay exact and replayable.
    std::int64_t value = 0;
    // What it modifies: "DRM", "to_hit", "pen", "B#", "X#", "FP"... A pipeline of a given kind
    // refuses a modifier of another kind (a to-hit modifier dropped into a pen sum is a bug).
    // Empty means "whatever the pipeline is".
    std::string kind;
    // The short label the rulebook prints in brackets: "FFNAM", "TEM", "leadership".
    std::string source;
    // The rule that grants it: "A4.6". Empty when the rule is not known.
    std::string citation;
    // Free text for --explain ("stone building in J6").
    std::string note;

    bool operator==(const Modifier&) const = default;
};

// "+3 [TEM]", "-1 [FFNAM]", "0 [x]": how the rulebook writes one modifier inside a total.
std::string render(const Modifier& m);

// "+3", "-1", "0": the rulebook's signed form (zero has no sign: "0 DRM").
std::string signed_string(std::int64_t value);

// JSON form: {"citation":..., "kind":..., "note":..., "source":..., "value":...}. Keys are
// always all present so that the serialized form of a journal is canonical.
void to_json(nlohmann::json& j, const Modifier& m);
// Reads the form above; missing string fields read as empty, a missing or non-integer value
// is a ParseError.
void from_json(const nlohmann::json& j, Modifier& m);

}  // namespace umpire::bus
