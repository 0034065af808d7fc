// A named computation of one number from modifiers, recorded step by step.
//
// Most pipelines are sums ("IFT DRM": -1 [FFNAM] +3 [TEM] = +2), but rulebooks also replace a
// value (an X# that takes precedence), cap it (a DRM never better than -3), halve it with a
// stated rounding (Area Fire halves FP) or multiply it (PBF doubles FP). Each operation is one
// Step that keeps the running total before and after it, its source label and its rule
// citation, so --explain can show every step and a replay can check every intermediate value.
// Steps apply in the order they are added: the pipeline never reorders, because in rulebooks
// the order is itself a rule ("halve, then add the DRM").
//
// All arithmetic is on int64 and an overflow is a RuleError, never a silent wrap.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/bus/Modifier.hpp"

namespace umpire::bus {

class ModifierPipeline {
public:
    enum class Op { base, add, set, at_most, at_least, halve, multiply };
    enum class Rounding { none, down, up };  // none for every op but halve

    struct Step {
        Op op = Op::add;
        std::int64_t operand = 0;  // the amount, limit, set value or factor (unused by halve)
        Rounding rounding = Rounding::none;
        std::string source;    // "TEM", "Area Fire", "X# precedence"
        std::string citation;  // "A7.5"
        std::string note;
        std::int64_t before = 0;  // running total before this step
        std::int64_t after = 0;   // running total after it

        bool operator==(const Step&) const = default;
    };

    // name: what the total is, for the log ("IFT DRM"). kind: the unit printed after the
    // total and the only Modifier::kind add() accepts ("DRM"); empty accepts any kind.
    ModifierPipeline(std::string name, std::string kind);

    const std::string& name() const { return name_; }
    const std::string& kind() const { return kind_; }

    // Starts from a base value instead of 0 ("8 FP [4-6-7 ×2]"); only allowed as the first
    // step (RuleError otherwise). A pipeline with a base renders its total unsigned ("4 FP"),
    // a pure sum renders it signed ("+2 DRM"), as rulebooks do.
    ModifierPipeline& start_from(std::int64_t base, std::string source, std::string citation = "",
                                 std::string note = "");
    // Adds a modifier. RuleError if its kind is set and differs from the pipeline's kind.
    ModifierPipeline& add(const Modifier& m);
    ModifierPipeline& add(std::int64_t value, std::string source, std::string citation = "",
                          std::string note = "");
    // Replaces the running total (later steps still apply to it).
    ModifierPipeline& set_to(std::int64_t value, std::string source, std::string citation = "",
                             std::string note = "");
    // Caps the running total from above: total = min(total, limit).
    ModifierPipeline& at_most(std::int64_t limit, std::string source, std::string citation = "",
                              std::string note = "");
    // Caps the running total from below: total = max(total, limit).
    ModifierPipeline& at_least(std::int64_t limit, std::string source, std::string citation = "",
                               std::string note = "");
    // Halves the running total. Rounding::down is floor (7 → 3, -3 → -2), Rounding::up is
    // ceiling (7 → 4, -3 → -1); Rounding::none is a RuleError because the rule must say.
    ModifierPipeline& halve(Rounding rounding, std::string source, std::string citation = "",
                            std::string note = "");
    // Multiplies the running total by an integer factor (PBF ×2, TPBF ×3).
    ModifierPipeline& multiply(std::int64_t factor, std::string source, std::string citation = "",
                               std::string note = "");

    // The running total after the last step (0 for an empty pipeline).
    std::int64_t total() const { return total_; }
    const std::vector<Step>& steps() const { return steps_; }
    // True when every step is an add (a plain DRM sum).
    bool is_sum() const;

    // The rulebook's form: "+2 DRM (-1 [FFNAM] +3 [TEM])"; "0 DRM" when empty; with other
    // steps, e.g. "4 FP (8 [4-6-7] ×½↓ [Area Fire])". Step forms: "+3 [TEM]", "=4 [src]",
    // "max 4 [src]" (at_most), "min 1 [src]" (at_least), "×½↓"/"×½↑" (halve), "×2 [PBF]".
    std::string render() const;
    // One line per step for --explain: "-1 [FFNAM] (A4.6) → -1", then "= +2 DRM".
    std::vector<std::string> explain_lines() const;

    bool operator==(const ModifierPipeline&) const = default;

private:
    ModifierPipeline& push(Op op, std::int64_t operand, Rounding rounding, std::string source,
                           std::string citation, std::string note);

    std::string name_;
    std::string kind_;
    std::int64_t total_ = 0;
    std::vector<Step> steps_;
};

// Name of an Op / Rounding as written in JSON ("at_most", "down"), and back (ParseError on an
// unknown name).
const char* op_name(ModifierPipeline::Op op);
const char* rounding_name(ModifierPipeline::Rounding r);
ModifierPipeline::Op op_from_name(const std::string& s);
ModifierPipeline::Rounding rounding_from_name(const std::string& s);

// JSON: {"kind","name","steps":[{after,before,citation,note,op,operand,rounding,source}],
// "total"}. Reading recomputes every step and throws ParseError if a recorded before/after/
// total does not match, so a tampered or stale journal is caught when it is loaded.
void to_json(nlohmann::json& j, const ModifierPipeline& p);
ModifierPipeline pipeline_from_json(const nlohmann::json& j);

}  // namespace umpire::bus
