#include "core/bus/Journal.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/Error.hpp"
#include "core/Utf8.hpp"
#include "core/bus/Event.hpp"
#include "core/bus/Hash.hpp"
#include "core/bus/JsonDepth.hpp"
#include "core/bus/JsonKeys.hpp"
#include "core/bus/Modifier.hpp"
#include "core/bus/ModifierPipeline.hpp"

namespace umpire::bus {

namespace {

using Kind = JournalEntry::Kind;
using json = nlohmann::json;

// Rewrites floats in place so the journal's bytes do not depend on whether a number came
// through Lua (double) or C++ (integer); see "Canonical form" in Journal.hpp.
// Text that JSON cannot hold, refused when the entry is made, so the error names the rule code's
// line (lua_guard prefixes it): the journal is dumped at the end of a run, where nlohmann threw
// "[json.exception.type_error.316] invalid UTF-8 byte at index 0: 0xFF" (umpire.note("\255")),
// naming nothing, and the journal was not written.
void refuse_bad_utf8(const std::string& text, const char* what) {
    const std::size_t bad = first_bad_utf8(text);
    if (bad == std::string::npos) return;
    throw RuleError(std::string("journal: ") + what + " is not UTF-8 text (byte " + hex_byte(text[bad]) + " at offset " +
                    std::to_string(bad) + "), and the journal is JSON, which holds UTF-8 only");
}

void normalise(json& j) {
    switch (j.type()) {
        case json::value_t::string: refuse_bad_utf8(j.get_ref<const std::string&>(), "a text in the entry's data"); break;
        case json::value_t::number_float: {
            double d = j.get<double>();
            if (!std::isfinite(d))
                throw RuleError("journal: a value is NaN or infinite, which JSON cannot record");
            // 2^63 is exactly representable; anything in [-2^63, 2^63) converts without UB.
            // -0.0 becomes 0 here too, so it journals like 0.0.
            if (d == std::floor(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0)
                j = static_cast<std::int64_t>(d);
            break;
        }
        case json::value_t::object:
            for (auto it = j.begin(); it != j.end(); ++it) {
                refuse_bad_utf8(it.key(), "a key in the entry's data");
                normalise(it.value());
            }
            break;
        case json::value_t::array:
            for (auto& v : j) normalise(v);
            break;
        default: break;
    }
}

std::string join_faces(const json& faces) {
    std::string out;
    for (const auto& f : faces) {
        if (!out.empty()) out += ' ';
        out += f.dump();
    }
    return out;
}

std::string context_line(const JournalEntry::Context& c) {
    std::string out = "Turn " + std::to_string(c.turn);
    if (!c.player.empty()) out += " · " + c.player;
    if (!c.phase.empty()) out += " · " + c.phase;
    return out;
}

// Heap bytes of a JSON value, estimated: nlohmann's node, a string's characters, an object's tree
// node and key per member.
std::size_t json_bytes(const json& j) {
    std::size_t n = sizeof(json);
    if (j.is_string()) n += j.get_ref<const std::string&>().size() + 32;
    else if (j.is_object())
        for (const auto& [key, value] : j.items()) n += key.size() + 64 + json_bytes(value);
    else if (j.is_array())
        for (const auto& value : j) n += json_bytes(value);
    return n;
}

std::size_t entry_bytes(const JournalEntry& e) {
    return sizeof(JournalEntry) + e.text.size() + e.citation.size() + e.context.player.size() +
           e.context.phase.size() + json_bytes(e.data);
}

}  // namespace

std::size_t Journal::append(Kind kind, std::string text, json data, std::string citation) {
    if (data.is_null()) data = json::object();
    if (!data.is_object()) throw RuleError("journal: entry data must be an object");
    normalise(data);
    refuse_bad_utf8(text, "the entry's text");
    refuse_bad_utf8(citation, "the entry's citation");
    refuse_bad_utf8(context_.player, "the player of the entry's context");
    refuse_bad_utf8(context_.phase, "the phase of the entry's context");
    JournalEntry e;
    e.seq = entries_.size() + 1;
    e.kind = kind;
    e.depth = depth_;
    e.context = context_;
    e.citation = std::move(citation);
    e.text = std::move(text);
    e.data = std::move(data);
    bytes_ += entry_bytes(e);
    entries_.push_back(std::move(e));
    return entries_.size() - 1;
}

std::size_t Journal::roll(std::string what, std::string expression,
                          std::vector<std::int64_t> faces, std::int64_t total,
                          std::string citation, json extra) {
    json data = extra.is_object() ? std::move(extra) : json::object();
    data["expression"] = std::move(expression);
    data["faces"] = std::move(faces);
    data["total"] = total;
    return append(Kind::roll, std::move(what), std::move(data), std::move(citation));
}

std::size_t Journal::modifiers(const ModifierPipeline& pipeline, std::string citation) {
    return append(Kind::modifier, pipeline.render(), json(pipeline), std::move(citation));
}

std::size_t Journal::modifier(const Modifier& m) {
    return append(Kind::modifier, render(m), json{{"modifier", m}}, m.citation);
}

std::size_t Journal::state_change(std::string path, json before, json after,
                                  std::string citation) {
    json data{{"path", path}, {"before", std::move(before)}, {"after", std::move(after)}};
    return append(Kind::state, std::move(path), std::move(data), std::move(citation));
}

std::size_t Journal::result(std::string text, json data, std::string citation) {
    return append(Kind::result, std::move(text), std::move(data), std::move(citation));
}

std::size_t Journal::cite(std::string rule, std::string text) {
    return append(Kind::cite, std::move(text), json::object(), std::move(rule));
}

std::size_t Journal::event(const Event& event) {
    return append(Kind::event, event.name, json(event));
}

void Journal::update_event(std::size_t index, const Event& event) {
    if (index >= entries_.size() || entries_[index].kind != Kind::event)
        throw RuleError("journal: update_event on an entry that is not an event");
    json data = event;
    normalise(data);
    bytes_ += json_bytes(data);
    bytes_ -= std::min(bytes_, json_bytes(entries_[index].data));
    entries_[index].data = std::move(data);
}

std::size_t Journal::note(std::string text, json data) {
    return append(Kind::note, std::move(text), std::move(data));
}

json Journal::to_json() const {
    json entries = json::array();
    for (const auto& e : entries_) entries.push_back(e);
    return json{{"format", format_name},
                {"header",
                 {{"engine_version", header_.engine_version},
                  {"rulesets", header_.rulesets},
                  {"seed", header_.seed},
                  {"inputs", header_.inputs}}},
                {"entries", std::move(entries)}};
}

std::string Journal::dump() const { return to_json().dump(); }

Journal Journal::from_json(const json& j) {
    auto bad = [](const std::string& problem) {
        return ParseError("journal", "", 0, problem);
    };
    if (!j.is_object()) throw bad("expected a JSON object");
    if (!j.contains("format") || !j.at("format").is_string() || j.at("format").get<std::string>() != format_name)
        throw bad("unknown format (expected \"" + std::string(format_name) + "\")");
    if (!j.contains("header") || !j.at("header").is_object()) throw bad("missing \"header\"");
    if (!j.contains("entries") || !j.at("entries").is_array()) throw bad("missing \"entries\"");
    const json& h = j.at("header");
    // Unknown fields are refused, not ignored (see JournalEntry's from_json).
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it.key() != "format" && it.key() != "header" && it.key() != "entries")
            throw bad("unknown field \"" + it.key() + "\" (a journal has format, header, entries)");
    for (auto it = h.begin(); it != h.end(); ++it)
        if (it.key() != "engine_version" && it.key() != "rulesets" && it.key() != "seed" && it.key() != "inputs")
            throw bad("unknown header field \"" + it.key() + "\" (a header has engine_version, rulesets, seed, inputs)");
    // Each field of the header has its type, or the journal is refused here: read later with the
    // wrong type, it was a bare JSON library error naming no file.
    if (h.contains("engine_version") && !h.at("engine_version").is_string())
        throw bad("header \"engine_version\" must be a string");
    if (h.contains("rulesets")) {
        const json& rulesets = h.at("rulesets");
        if (!rulesets.is_object()) throw bad("header \"rulesets\" must map each ruleset's name to its hash");
        for (auto it = rulesets.begin(); it != rulesets.end(); ++it)
            if (!it.value().is_string())
                throw bad("header \"rulesets\": the hash of " + json(it.key()).dump() + " must be a string");
    }
    if (h.contains("inputs") && !h.at("inputs").is_object()) throw bad("header \"inputs\" must be an object");
    Journal out;
    out.header_.engine_version = h.value("engine_version", "");
    out.header_.rulesets = h.value("rulesets", json::object());
    if (h.contains("seed") && !h.at("seed").is_number_unsigned() &&
        !(h.at("seed").is_number_integer() && h.at("seed").get<std::int64_t>() >= 0))
        throw bad("header \"seed\" must be a non-negative integer");
    out.header_.seed = h.value("seed", std::uint64_t{0});
    out.header_.inputs = h.value("inputs", json::object());
    out.entries_.reserve(j.at("entries").size());
    for (const auto& je : j.at("entries")) {
        JournalEntry e;
        try {
            e = je.get<JournalEntry>();
        } catch (const ParseError& error) {
            // Said by the entry's number, with the offending text only when it is short (for a
            // mistyped field it is the whole entry, whose data may be megabytes).
            throw bad("entry " + std::to_string(out.entries_.size() + 1) + ": " + error.problem +
                      (!error.input.empty() && error.input.size() <= 40 ? " ('" + error.input + "')" : ""));
        }
        if (e.seq != out.entries_.size() + 1)
            throw bad("entry " + std::to_string(out.entries_.size() + 1) + " has seq " +
                      std::to_string(e.seq));
        out.bytes_ += entry_bytes(e);
        out.entries_.push_back(std::move(e));
    }
    if (!out.entries_.empty()) out.context_ = out.entries_.back().context;
    return out;
}

namespace {

// A window of the text around byte `at` (a megabyte of journal is no message), its offset in it.
std::pair<std::string, std::size_t> window_at(const std::string& text, std::size_t at) {
    const std::size_t from = at > 40 ? at - 40 : 0;
    std::string window = text.substr(from, 80);
    for (char& c : window)
        if (c == '\n' || c == '\t') c = ' ';
    return {window, std::min(at - from, window.size())};
}

}  // namespace

json Journal::parse_untrusted(const std::string& text, const char* what) {
    // A byte-order mark: the JSON library skipped it without a word, and JSON text has none (RFC
    // 8259 §8.1: "MUST NOT add a byte order mark"), so the file was written by something else
    // than umpire (an editor), and is said to be so.
    if (text.rfind("\xEF\xBB\xBF", 0) == 0)
        throw ParseError(what, "", 0, "starts with a byte-order mark (bytes EF BB BF, line 1, column 1): JSON text has none "
                                      "(save it as UTF-8 without a BOM)");
    // Nesting first, in one pass that skips strings: the parser would build the whole tree.
    if (const auto at = too_deep_at(text)) {
        const auto [window, column] = window_at(text, *at);
        throw ParseError(what, window, column,
                         "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels (byte " + std::to_string(*at) + ")");
    }
    try {
        json parsed = json::parse(text);
        // A key given twice in one object: the library kept the last without a word.
        if (const auto twice = duplicate_key_at(text)) {
            const auto [line, column] = line_and_column(text, twice->at);
            const auto [window, offset] = window_at(text, twice->at);
            throw ParseError(what, window, offset,
                             "the key " + json(twice->key).dump(-1, ' ', false, json::error_handler_t::replace) + " is given twice in one object (line " +
                                 std::to_string(line) + ", column " + std::to_string(column) + ")");
        }
        return parsed;
    } catch (const json::parse_error& e) {
        const std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
        const auto [window, column] = window_at(text, at);
        throw ParseError(what, window, column, "not valid JSON (byte " + std::to_string(at) + ")");
    } catch (const json::exception& e) {
        // A number that does not fit a double ("number overflow parsing '1e999'"): no offset.
        std::string message = e.what();
        if (const auto end = message.find("] "); message.rfind("[json.exception", 0) == 0 && end != std::string::npos)
            message.erase(0, end + 2);
        throw ParseError(what, "", 0, "not valid JSON: " + message);
    }
}

Journal Journal::load(const std::string& text) { return from_json(parse_untrusted(text, "journal")); }

std::string explain_line(const JournalEntry& e) {
    std::string out;
    if (!e.citation.empty()) out = "[" + e.citation + "] ";
    switch (e.kind) {
        case Kind::roll:
            // A counted pool (umpire.dice.count) has no faces to show, only how many succeeded.
            if (e.data.value("count", false)) {
                out += e.text + " → " + e.data.value("total", json()).dump() + " succeed";
                break;
            }
            out += e.text + ": " + e.data.value("expression", "") + " → " +
                   join_faces(e.data.value("faces", json::array())) + " = " +
                   e.data.value("total", json()).dump();
            break;
        case Kind::modifier:
            if (e.data.contains("name") && e.data.at("name").is_string() &&
                !e.data.at("name").get<std::string>().empty())
                out += e.data.at("name").get<std::string>() + ": ";
            out += e.text;
            break;
        case Kind::state:
            out += e.text + ": " + e.data.value("before", json()).dump() + " → " +
                   e.data.value("after", json()).dump();
            break;
        case Kind::result: out += "⇒ " + e.text; break;
        case Kind::cite: out += e.text; break;
        case Kind::event: {
            out += "» " + e.text;
            if (e.data.value("cancelled", false))
                out += " (cancelled by " + e.data.value("cancelled_by", "?") + ")";
            for (const auto& c : e.data.value("changes", json::array())) {
                if (c.value("what", "") == "cancel") continue;
                out += "; " + c.value("owner", "?") + " set " + c.value("what", "") + " " +
                       c.value("before", json()).dump() + " → " + c.value("after", json()).dump();
            }
            break;
        }
        case Kind::note: out += e.text; break;
    }
    return out;
}

std::string Journal::explain() const {
    std::string out;
    const Context* last = nullptr;
    for (const auto& e : entries_) {
        if (!last || !(*last == e.context)) {
            if (e.context.turn != 0 || !e.context.player.empty() || !e.context.phase.empty())
                out += context_line(e.context) + "\n";
            last = &e.context;
        }
        std::string indent(2 * static_cast<std::size_t>(e.depth), ' ');
        out += indent + explain_line(e) + "\n";
        // A pipeline shows each step, one level deeper, so every DRM is traced to its rule.
        if (e.kind == Kind::modifier && e.data.contains("steps")) {
            try {
                for (const auto& line : pipeline_from_json(e.data).explain_lines())
                    out += indent + "  " + line + "\n";
            } catch (const Error&) {
                out += indent + "  (steps unreadable)\n";
            }
        }
    }
    return out;
}

std::uint64_t Journal::hash() const { return fnv1a_64(dump()); }

std::string Journal::hash_hex() const { return bus::hash_hex(hash()); }

std::optional<Journal::Divergence> Journal::first_divergence(const Journal& expected,
                                                             const Journal& actual,
                                                             bool compare_header) {
    // json::diff yields an RFC 6902 patch from expected to actual; its first operation's path
    // is the first differing field in key order, which is what a human needs to look at.
    auto first_diff = [](const json& a, const json& b, Divergence& d) {
        json patch = json::diff(a, b);
        if (patch.empty()) return false;
        const json& op = patch.front();
        d.path = op.at("path").get<std::string>();
        json::json_pointer p(d.path);
        d.expected = a.contains(p) ? a.at(p).dump() : "";
        d.actual = b.contains(p) ? b.at(p).dump() : "";
        return true;
    };

    Divergence d;
    if (compare_header) {
        json a = expected.to_json().at("header"), b = actual.to_json().at("header");
        if (first_diff(a, b, d)) {
            d.where = Divergence::Where::header;
            d.message = "headers differ at " + d.path + ": expected " +
                        (d.expected.empty() ? "nothing" : d.expected) + ", got " +
                        (d.actual.empty() ? "nothing" : d.actual);
            return d;
        }
    }
    std::size_t n = std::min(expected.size(), actual.size());
    for (std::size_t i = 0; i < n; ++i) {
        const JournalEntry& x = expected.entries_[i];
        const JournalEntry& y = actual.entries_[i];
        if (x == y) continue;
        first_diff(json(x), json(y), d);
        d.where = Divergence::Where::entry;
        d.index = i;
        const std::string line_x = explain_line(x), line_y = explain_line(y);
        // When the difference is in a field the explain line does not show (data, depth), the two
        // lines read the same: show the differing values instead.
        d.message = "entry " + std::to_string(i + 1) + " differs at " + d.path +
                    (line_x != line_y
                         ? ": expected \"" + line_x + "\", got \"" + line_y + "\""
                         : ": expected " + (d.expected.empty() ? std::string("nothing") : d.expected) + ", got " +
                               (d.actual.empty() ? std::string("nothing") : d.actual) + " (in \"" + line_x + "\")");
        return d;
    }
    if (expected.size() != actual.size()) {
        d.where = Divergence::Where::length;
        d.index = n;
        bool actual_short = actual.size() < expected.size();
        const JournalEntry& extra = actual_short ? expected.entries_[n] : actual.entries_[n];
        d.path = "";
        (actual_short ? d.expected : d.actual) = json(extra).dump();
        d.message = actual_short
                        ? "actual journal ends after entry " + std::to_string(n) +
                              "; expected next \"" + explain_line(extra) + "\""
                        : "actual journal has extra entries from entry " + std::to_string(n + 1) +
                              ": \"" + explain_line(extra) + "\"";
        return d;
    }
    return std::nullopt;
}

}  // namespace umpire::bus
