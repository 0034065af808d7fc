// The checks of a YAML data file and its values, shared by the parser front ends: the Converter
// turns a parsed tree (libyaml's, ruleset/YamlTree.hpp, or yaml-cpp's YAML::Node, which the
// differential test tests/ruleset/test_yaml_differential.cpp still runs) into the values a load
// keeps and pushes (YamlLoader.hpp describes the format and its errors).
#pragma once
#include <yaml-cpp/mark.h>
#include <yaml-cpp/node/type.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bindings/DataMarks.hpp"
#include "bindings/LuaError.hpp"
#include "ruleset/YamlLoader.hpp"

namespace umpire::yaml {

// Limits on untrusted data (a ruleset's YAML comes from strangers): the value count bounds alias
// expansion (`a: &a [*b, *b, ...]` nests exponentially many copies into Lua tables from a few
// lines) and the parser's tree; the depth bounds the converter's recursion.
inline constexpr std::size_t kMaxValues = 250'000;
inline constexpr int kMaxDepth = 64;

// A value of a parsed document: a scalar, or a table with its entries in document order. A
// table keeps the size yaml-cpp reported (null entries included), so the Lua table is created with
// the same size hint as before the cache existed, and so has the same layout.
enum class Kind : unsigned char { Boolean, Number, String, Sequence, Map };

struct Entry;

struct Value {
    Kind kind = Kind::String;
    bool boolean = false;
    double number = 0;
    std::string text;   // a string's bytes; a table's own mark ("file:line:col")
    int size_hint = 0;  // tables: yaml-cpp's node.size()
    std::vector<Entry> entries;
    std::string key_marks;  // tables: their entries' key marks, packed (bindings/DataMarks.hpp)
};

// One key of a table that holds a value (a null map value is skipped, as Lua cannot hold it).
struct Entry {
    Value key;
    Value value;
    int key_line = 0, key_column = 0;  // 1-based place of the key (of the item, in a sequence)
};

struct Document {
    Value root;
    // The C++ heap its values take (nodes, strings, entry arrays), worked out once by parse: a
    // document kept past its load (a scenario) is charged this much against the memory cap on
    // every load that keeps it, and a reload must not walk it again to know.
    std::size_t heap_bytes = 0;
};

// The C++ heap a value takes: the node, its strings and its entry array, and those of its entries.
inline std::size_t heap_bytes(const Value& value) {
    std::size_t bytes = sizeof(Value) + value.text.capacity() + value.entries.capacity() * sizeof(Entry) +
                        value.key_marks.capacity();
    for (const auto& entry : value.entries) bytes += heap_bytes(entry.key) + heap_bytes(entry.value);
    return bytes;
}

namespace detail {

// "display:line:col", made in one allocation: a data file has two marks for each map entry, and
// the chain of operator+ and std::to_string made four strings for each (a tenth of parsing).
inline std::string mark_text(const std::string& display, const YAML::Mark& m) {
    char line[16], column[16];  // an int has at most 11 characters
    char* line_end = std::to_chars(line, line + sizeof line, m.line + 1).ptr;
    char* column_end = std::to_chars(column, column + sizeof column, m.column + 1).ptr;
    std::string out;
    out.reserve(display.size() + 2 + static_cast<std::size_t>(line_end - line) +
                static_cast<std::size_t>(column_end - column));
    out.append(display).append(1, ':').append(line, line_end).append(1, ':').append(column, column_end);
    return out;
}

// What follows the end of a file's document, in both readers (YamlTree.cpp for data files,
// YamlLoader.cpp's yaml-cpp path for manifests): a second document, or text the first could not
// take. Both used to read the first document and ignore the rest, so a stray `---` dropped half a
// file without a word.
inline const char* const kSecondDocument =
    "a second YAML document starts here: a file holds one document (remove this '---', or move what "
    "follows into a file of its own)";

// Where a node was written: for libyaml's tree (TreeRef) an alias's own mark, where yaml-cpp's
// node, the anchored one, has only the anchor's. A key given twice through an alias (`? &k a`,
// then `*k :`) is refused there; the values' marks stay the anchored node's, as in yaml-cpp.
template <class Node>
YAML::Mark written_mark(const Node& node) {
    if constexpr (requires { node.WrittenMark(); }) return node.WrittenMark();
    else return node.Mark();
}

[[noreturn]] inline void fail(const std::string& display, const YAML::Mark& m, const std::string& what) {
    std::string file = display;
    throw ScriptError(mark_text(display, m) + ": " + what, file, m.line + 1);
}

inline void count_value(std::size_t& values, const std::string& display, const YAML::Mark& m) {
    if (++values > kMaxValues)
        fail(display, m, "more than " + std::to_string(kMaxValues) +
                             " values in one file (aliases expanding without end?)");
}

// The keys of one map met so far, for the duplicate check: key text -> the line it was first
// defined at. A data file's maps mostly hold a handful of keys, and a hash map allocated a node for
// each key of each map (about a tenth of the converter's allocations); so up to kLinear keys are
// kept in one vector and compared in turn, and a larger map moves them into a hash map.
class SeenKeys {
public:
    explicit SeenKeys(std::size_t size) {
        if (size > kLinear) hashed_.reserve(size);
        else few_.reserve(size);
    }
    // 0 if `key` is new (it is kept, with `line`); else the line it was first defined at.
    int add(std::string_view key, int line) {
        if (hashed_.empty() && few_.size() < kLinear) {
            for (const auto& [seen, at] : few_)
                if (seen == key) return at;
            few_.emplace_back(key, line);
            return 0;
        }
        if (hashed_.empty()) hashed_.insert(few_.begin(), few_.end());
        const auto [it, fresh] = hashed_.emplace(key, line);
        return fresh ? 0 : it->second;
    }

private:
    static constexpr std::size_t kLinear = 16;
    std::vector<std::pair<std::string_view, int>> few_;
    std::unordered_map<std::string_view, int> hashed_;
};

// YAML nodes -> Values, with every check of the format (see the header).
template <class Node>
struct Converter {
    std::string display;
    std::size_t values = 0;
    int depth = 0;

    // A number, or an error at the node when it does not fit a double (1e999, a 30-digit hex):
    // std::stod would throw std::out_of_range, which said only "stod".
    double number(const Node& node, const std::string& digits, int base) {
        errno = 0;
        char* end = nullptr;
        const double value = base == 10 ? std::strtod(digits.c_str(), &end)
                                        : double(std::strtoull(digits.c_str(), &end, base));
        if (errno == ERANGE || !std::isfinite(value))
            fail(display, node.Mark(), "number out of range: " +
                                           (node.Scalar().size() > 40 ? node.Scalar().substr(0, 40) + "..." : node.Scalar()) +
                                           " (quote it to keep it as text)");
        return value;
    }
    // Make `out`, a fresh Value (built in place by the caller), a number, a boolean or a string.
    // A temporary Value moved in (its three members moved, then destroyed) cost more than the
    // conversion of most scalars.
    static bool set_number(Value& out, double value) {
        out.kind = Kind::Number;
        out.number = value;
        return true;
    }
    static bool set_boolean(Value& out, bool value) {
        out.kind = Kind::Boolean;
        out.boolean = value;
        return true;
    }
    static bool set_string(Value& out, const std::string& text) {
        out.kind = Kind::String;
        out.text = text;
        return true;
    }

    // The scalar's value, or false for null. Compared as string_views, whose == looks at the
    // size first: std::string == "literal" measured the literal and compared bytes for each of
    // the twenty names below, on every scalar of a file (a sixth of parsing one).
    bool scalar(const Node& node, Value& out) {
        using namespace std::string_view_literals;
        const std::string_view text = node.Scalar();
        const std::string_view tag = node.Tag();
        if (tag == "!"sv || tag == "tag:yaml.org,2002:str"sv) {  // quoted, or !!str
            return set_string(out, node.Scalar());
        }
        if (text.empty() || text == "~"sv || text == "null"sv || text == "Null"sv || text == "NULL"sv)
            return false;
        if (text == "true"sv || text == "True"sv || text == "TRUE"sv) return set_boolean(out, true);
        if (text == "false"sv || text == "False"sv || text == "FALSE"sv) return set_boolean(out, false);
        const std::string& whole = node.Scalar();
        if (is_decimal(whole)) return set_number(out, number(node, whole, 10));
        if (is_hex(whole)) return set_number(out, number(node, whole.substr(2), 16));
        if (is_octal(whole)) return set_number(out, number(node, whole.substr(2), 8));
        if (text == ".inf"sv || text == ".Inf"sv || text == ".INF"sv || text == "+.inf"sv) return set_number(out, HUGE_VAL);
        if (text == "-.inf"sv || text == "-.Inf"sv || text == "-.INF"sv) return set_number(out, -HUGE_VAL);
        if (text == ".nan"sv || text == ".NaN"sv || text == ".NAN"sv) return set_number(out, NAN);
        if (tag != "?"sv && tag != "!"sv)
            fail(display, node.Mark(), "unsupported YAML tag '" + node.Tag() + "'");
        return set_string(out, whole);
    }

    static void place(Entry& entry, const YAML::Mark& m) {
        entry.key_line = m.line + 1;
        entry.key_column = m.column + 1;
    }

    // A table's key marks in one string, as the loader records them (marks::KeyMarks).
    void pack_key_marks(Value& table) {
        if (table.entries.empty()) return;
        marks::KeyMarks packed;
        packed.begin(display, table.entries.size());
        for (const Entry& entry : table.entries) {
            const Value& key = entry.key;
            if (key.kind == Kind::Number) packed.add(key.number, entry.key_line, entry.key_column);
            else if (key.kind == Kind::Boolean) packed.add(key.boolean, entry.key_line, entry.key_column);
            else packed.add(std::string_view(key.text), entry.key_line, entry.key_column);
        }
        table.key_marks = packed.take();
    }

    // The node's value; false for null.
    bool convert(const Node& node, Value& out) {
        count_value(values, display, node.Mark());
        if (node.IsSequence() || node.IsMap()) {
            if (depth >= kMaxDepth)
                fail(display, node.Mark(), "nested deeper than " + std::to_string(kMaxDepth) + " levels");
            ++depth;
            const bool converted = convert_value(node, out);
            --depth;
            return converted;
        }
        return convert_value(node, out);
    }

    bool convert_value(const Node& node, Value& out) {
        switch (node.Type()) {
        case YAML::NodeType::Null: return false;
        case YAML::NodeType::Undefined: return false;
        case YAML::NodeType::Scalar: return scalar(node, out);
        case YAML::NodeType::Sequence: {
            out.kind = Kind::Sequence;
            out.size_hint = static_cast<int>(node.size());
            out.text = mark_text(display, node.Mark());
            out.entries.reserve(node.size());
            int i = 0;
            for (const auto& item : node) {
                ++i;
                // Built in place (the entries are reserved): an Entry is three strings and a vector.
                Entry& entry = out.entries.emplace_back();
                if (!convert(item, entry.value))
                    fail(display, item.Mark(), "empty item in a list (Lua lists cannot hold nil; "
                                                "remove it or quote it)");
                set_number(entry.key, i);
                place(entry, item.Mark());
            }
            pack_key_marks(out);
            return true;
        }
        case YAML::NodeType::Map: {
            out.kind = Kind::Map;
            out.size_hint = static_cast<int>(node.size());
            out.text = mark_text(display, node.Mark());
            out.entries.reserve(node.size());
            // Key text -> line, to report duplicates; views into the tree, which outlives this.
            SeenKeys seen(node.size());
            for (const auto& item : node) {
                const Node& key = item.first;
                if (!key.IsScalar()) fail(display, key.Mark(), "a map key must be a plain value");
                if (key.Scalar() == "<<" && key.Tag() == "?")
                    fail(display, key.Mark(), "YAML merge keys (<<) are not supported: write the keys "
                                              "out, or quote \"<<\" for a literal key");
                if (const int first = seen.add(std::string_view(key.Scalar()), written_mark(key).line + 1))
                    fail(display, written_mark(key), "duplicate key '" + key.Scalar() +
                                                  "' (first defined at line " +
                                                  std::to_string(first) + ")");
                Entry& entry = out.entries.emplace_back();  // in place, as above; dropped if null
                if (!scalar(key, entry.key)) fail(display, key.Mark(), "a map key cannot be null");
                // A Lua table cannot hold a NaN key (lua_rawset raises): refuse it here, with the place.
                if (entry.key.kind == Kind::Number && std::isnan(entry.key.number))
                    fail(display, key.Mark(), "a map key cannot be NaN (.nan)");
                if (convert(item.second, entry.value)) place(entry, key.Mark());
                else out.entries.pop_back();
            }
            pack_key_marks(out);
            return true;
        }
        }
        return false;
    }
};

}  // namespace detail
}  // namespace umpire::yaml
