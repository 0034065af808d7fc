// The journal: the structured record of a game, and the basis of --explain, replay and the odds
// engine's outcome keys.
//
// Every roll, modifier sum, state change, result, citation and event is appended as a
// JournalEntry carrying the current turn/player/phase context and a nesting depth.
//
// Canonical form. to_json()/dump() produce the same bytes for the same history: object keys are
// sorted (nlohmann::json objects are ordered maps), every entry has every key, there are no
// timestamps or addresses, and numbers are normalised when appended: a floating-point value
// with an integral value that fits int64 is stored as that integer (Lua numbers are doubles, so
// 3 and 3.0 must journal alike), and NaN or infinity is a RuleError (JSON cannot hold them, and a
// rule that produces one is broken). Other floats are kept and printed in nlohmann's
// shortest round-trip form, which reads back to the same double.
//
// Format (format == "umpire-journal/1"):
//   {"entries":[{"citation":"A9.7","data":{},"depth":0,"kind":"cite","phase":"DFPh",
//                "player":"American","seq":1,"text":"Original DR 11 ≤ B# 11: ...","turn":2}],
//    "format":"umpire-journal/1",
//    "header":{"engine_version":"0.1.0","inputs":{},"rulesets":{"asl":"<hash>"},"seed":42}}
//
// data per kind (fields written by the helpers below; append() accepts any object):
//   roll      {"expression":"2d6","faces":[3,5],"total":8} + any extra fields (e.g. "dice":"DR")
//   modifier  the ModifierPipeline JSON (name, kind, steps, total), or {"modifier":{...}}
//   state     {"path":"units.squad_1.broken","before":false,"after":true}
//   result    free-form
//   cite      {}
//   event     the Event JSON (name, payload, cancelled, cancelled_by, changes, depth)
//   note      free-form
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/bus/JournalEntry.hpp"

namespace umpire::bus {

struct Event;
struct Modifier;
class ModifierPipeline;

class Journal {
public:
    using Context = JournalEntry::Context;
    static constexpr const char* format_name = "umpire-journal/1";

    // What replay needs to run the game again. Filled by the CLI / replay feature.
    struct Header {
        std::string engine_version;
        nlohmann::json rulesets = nlohmann::json::object();  // ruleset name → content hash (hex)
        std::uint64_t seed = 0;
        nlohmann::json inputs = nlohmann::json::object();    // scenario, script, CLI inputs
        bool operator==(const Header&) const = default;
    };

    // Where two journals first differ (see first_divergence).
    struct Divergence {
        enum class Where { header, entry, length };
        Where where = Where::entry;
        std::size_t index = 0;  // 0-based entry index (entry, length); 0 for header
        std::string path;       // JSON pointer of the first differing field ("/data/total")
        std::string expected;   // that field in the expected journal, as JSON ("" if absent)
        std::string actual;     // that field in the actual journal
        std::string message;    // one human sentence for `umpire replay`
    };

    Journal() = default;
    explicit Journal(Header header) : header_(std::move(header)) {}

    Header& header() { return header_; }
    const Header& header() const { return header_; }

    // The turn/player/phase stamped on entries from now on. TurnSequence::advance() sets it
    // through the bus's journal; the bindings may set it directly.
    void set_context(Context context) { context_ = std::move(context); }
    const Context& context() const { return context_; }

    // Nesting: entries appended between push_depth() and pop_depth() are one level deeper
    // (indented under the entry before them in --explain). Nest is the RAII form.
    void push_depth() { ++depth_; }
    void pop_depth() { if (depth_ > 0) --depth_; }
    int depth() const { return depth_; }
    struct Nest {
        explicit Nest(Journal& j) : journal(j) { journal.push_depth(); }
        ~Nest() { journal.pop_depth(); }
        Nest(const Nest&) = delete;
        Nest& operator=(const Nest&) = delete;
        Journal& journal;
    };

    // Appends an entry with the current context and depth; returns its 0-based index.
    // data must be an object or null (RuleError otherwise); it is normalised (see above).
    std::size_t append(JournalEntry::Kind kind, std::string text,
                       nlohmann::json data = nlohmann::json::object(), std::string citation = "");

    // A die roll: what it was for ("IFT DR, 4-6-7 + MMG"), the expression, the faces in the
    // order rolled (ASL DR: coloured first, then white), the total. extra is merged into data.
    std::size_t roll(std::string what, std::string expression, std::vector<std::int64_t> faces,
                     std::int64_t total, std::string citation = "",
                     nlohmann::json extra = nlohmann::json::object());
    // A finished modifier pipeline; text is its rendering ("+2 DRM (-1 [FFNAM] +3 [TEM])").
    std::size_t modifiers(const ModifierPipeline& pipeline, std::string citation = "");
    // One modifier on its own (e.g. "the Fire Lane gets -1 [FFNAM]").
    std::size_t modifier(const Modifier& modifier);
    // A change of game state at path (a dotted or pointer path into the state store).
    std::size_t state_change(std::string path, nlohmann::json before, nlohmann::json after,
                             std::string citation = "");
    // An outcome ("the MMG malfunctions"); data is what the odds engine keys outcomes on.
    std::size_t result(std::string text, nlohmann::json data = nlohmann::json::object(),
                       std::string citation = "");
    // umpire.cite(rule, text): "[A9.7] Original DR 11 ≤ B# 11: the MMG malfunctions".
    std::size_t cite(std::string rule, std::string text);
    // An event as raised (EventBus calls this, then update_event once handlers are done).
    std::size_t event(const Event& event);
    void update_event(std::size_t index, const Event& event);
    std::size_t note(std::string text, nlohmann::json data = nlohmann::json::object());

    const std::vector<JournalEntry>& entries() const { return entries_; }
    // An estimate of the heap bytes the entries hold (strings, JSON data, the entries
    // themselves), kept as entries are added: the Lua host charges the journal's growth against
    // its memory cap (docs/sandbox.md, "Memory"), since rule code makes the entries.
    std::size_t bytes() const { return bytes_; }
    const std::size_t* bytes_counter() const { return &bytes_; }
    std::size_t size() const { return entries_.size(); }
    bool empty() const { return entries_.empty(); }
    void reserve(std::size_t n) { entries_.reserve(n); }

    // Canonical JSON (see the format above), and its compact text.
    nlohmann::json to_json() const;
    std::string dump() const;
    // Reads what to_json()/dump() wrote. ParseError (with the offending offset for text) on
    // malformed input, an unknown format, or sequence numbers that are not 1, 2, 3, ...
    static Journal from_json(const nlohmann::json& j);
    static Journal load(const std::string& text);

    // JSON text from a stranger (a journal, the starting state it records), parsed: ParseError
    // (`what` names it) for malformed text, a number that does not fit, or nesting deeper than
    // kMaxJsonDepth (JsonDepth.hpp), which is refused before the parse (a deep tree costs its
    // size in stack elsewhere: the game state is converted to Lua recursively).
    static nlohmann::json parse_untrusted(const std::string& text, const char* what);

    // The rule log for --explain: one line per entry, indented two spaces per depth, with a
    // "Turn 2 · American · DFPh" line whenever the context changes. Pipelines list their steps.
    std::string explain() const;

    // FNV-1a 64 of dump(): equal for equal histories, on every platform.
    std::uint64_t hash() const;
    std::string hash_hex() const;

    // The first place where actual differs from expected: the header (if compare_header), then
    // the entries in order (the first differing field of the first differing entry), then a
    // length difference. std::nullopt when they are the same.
    static std::optional<Divergence> first_divergence(const Journal& expected,
                                                      const Journal& actual,
                                                      bool compare_header = true);

private:
    Header header_;
    Context context_;
    int depth_ = 0;
    std::vector<JournalEntry> entries_;
    std::size_t bytes_ = 0;
};

// The rule-log line of one entry, without indentation or context (what explain() prints).
std::string explain_line(const JournalEntry& entry);

}  // namespace umpire::bus
