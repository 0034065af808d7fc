#include "ruleset/YamlLoader.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <map>
#include <sstream>
#include <unordered_set>
#include <algorithm>
#include <memory>
#include <vector>
#include <utility>

#include "bindings/DataMarks.hpp"
#include "bindings/Game.hpp"
#include "bindings/LuaError.hpp"
#include "core/Utf8.hpp"
#include "host/LuaHost.hpp"
#include "ruleset/YamlConvert.hpp"
#include "ruleset/YamlTree.hpp"

namespace umpire::yaml {
namespace {

using detail::count_value;
using detail::fail;
using detail::mark_text;

constexpr std::size_t kMaxBytes = kMaxFileBytes;
// yaml-cpp's tree takes about 470 bytes of C++ heap per node (measured with mallinfo2 over lists,
// maps and nested lists of 200 000 nodes), outside the Lua allocator: 16 MiB of "- 1" lines built
// a 1.9 GB tree before the value count above was ever looked at. The tree of a file is charged
// against the Lua memory cap at this rate while it exists (docs/sandbox.md, "Memory"). The data
// files' tree (YamlTree.hpp) takes less (about 150 bytes a node), and is charged at the same rate,
// so that every file the cap let through before is let through now, and no other.
constexpr std::size_t kTreeBytesPerNode = 512;

// 1-based line and column (in bytes) of offset in text.
std::pair<int, int> line_col(const std::string& text, std::size_t offset) {
    int line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < offset; ++i)
        if (text[i] == '\n') { ++line; line_start = i + 1; }
    return {line, static_cast<int>(offset - line_start) + 1};
}


// Text that is not well-formed UTF-8, refused at its line and column: by the data loader, and by
// the C++ readers' trees too (a manifest's `name: "y\xff"` was taken, then the journal's dump threw
// nlohmann's "invalid UTF-8 byte", naming no file).
void refuse_bad_utf8(const std::string& text, const std::string& display) {
    const std::size_t bad = first_bad_utf8(text);
    if (bad == std::string::npos) return;
    const auto [line, col] = line_col(text, bad);
    throw ScriptError(display + ":" + std::to_string(line) + ":" + std::to_string(col) + ": malformed UTF-8 (byte " +
                          hex_byte(text[bad]) + "); a data file must be UTF-8 text",
                      display, line);
}

// One file's bounds, refused at the place they are passed: its size (before it is read or parsed)
// and its count of values (nodes while parsing, values with aliases expanded while converting).
void refuse_if_too_big(std::size_t bytes, const std::string& display) {
    if (bytes > kMaxBytes)
        throw ScriptError(display + ":1:1: " + std::to_string(bytes >> 20) + " MiB; a data file may hold at most " +
                              std::to_string(kMaxBytes >> 20) + " MiB",
                          display, 1);
}
// YAML 1.2 core-schema scalars, by hand: std::regex took a tenth of a cold start.
bool digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool is_decimal(const std::string& text) {
    const std::size_t n = text.size();
    std::size_t i = 0;
    if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
    const std::size_t whole = i;
    while (i < n && digit(text[i])) ++i;
    if (i > whole) {
        if (i < n && text[i] == '.')
            for (++i; i < n && digit(text[i]); ++i) {}
    } else {
        if (i >= n || text[i] != '.') return false;
        const std::size_t fraction = ++i;
        while (i < n && digit(text[i])) ++i;
        if (i == fraction) return false;
    }
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
        const std::size_t exponent = i;
        while (i < n && digit(text[i])) ++i;
        if (i == exponent) return false;
    }
    return i == n;
}

bool is_hex(const std::string& text) {
    if (text.size() < 3 || text[0] != '0' || text[1] != 'x') return false;
    return std::all_of(text.begin() + 2, text.end(), [](char c) {
        return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    });
}

bool is_octal(const std::string& text) {
    if (text.size() < 3 || text[0] != '0' || text[1] != 'o') return false;
    return std::all_of(text.begin() + 2, text.end(), [](char c) { return c >= '0' && c <= '7'; });
}

namespace {

// Values -> Lua tables, recording the marks through one marks::Writer.
struct Pusher {
    lua_State* L;
    marks::Writer& marks;

    void push_scalar(const Value& v) {
        switch (v.kind) {
        case Kind::Boolean: lua_pushboolean(L, v.boolean); break;
        case Kind::Number: lua_pushnumber(L, v.number); break;
        default: lua_pushlstring(L, v.text.data(), v.text.size()); break;
        }
    }

    void push(const Value& v) {
        if (v.kind != Kind::Sequence && v.kind != Kind::Map) return push_scalar(v);
        const bool sequence = v.kind == Kind::Sequence;
        lua_createtable(L, sequence ? v.size_hint : 0, sequence ? 0 : v.size_hint);
        const int t = lua_gettop(L);
        marks.mark_table(t, v.text, sequence, v.key_marks);
        for (const Entry& entry : v.entries) {
            push_scalar(entry.key);
            push(entry.value);
            lua_rawset(L, t);
        }
    }
};

}  // namespace

namespace {
// ---- bounds before yaml-cpp builds its tree -----------------------------------------------------
// Counts the nodes of the first document from the parser's events, which build no tree, so that a
// file of too many nodes is refused before yaml-cpp builds its tree on the C++ heap. An alias
// counts one node here (its expansion is counted by the Converter).
// Counts the nodes of a document for the C++ readers (the manifest, `check`, scenario drawings),
// and refuses nesting past kMaxTreeDepth with a message that says so: yaml-cpp's own guard (500
// levels) said only "bad file". Raised as the parser's own error (YAML::ParserException, shown as
// "file:line:col: ..."), as the guard's was: found while the parser reads, before a converter
// that reads the tree afterwards (and refuses 64 levels, YamlConvert.hpp) could meet another error.
constexpr std::size_t kMaxTreeDepth = 400;

struct NodeCounter : YAML::EventHandler {
    std::string display;
    const std::string& source;  // the text parsed
    std::size_t nodes = 0;
    std::size_t depth = 0;
    NodeCounter(std::string file, const std::string& text) : display(std::move(file)), source(text) {}
    void count(const YAML::Mark& m) { count_value(nodes, display, m); }
    void open(const YAML::Mark& m) {
        count(m);
        if (++depth > kMaxTreeDepth)
            throw YAML::ParserException(m, "nested deeper than " + std::to_string(kMaxTreeDepth) + " levels");
    }
    void OnDocumentStart(const YAML::Mark& m) override { start = m; }
    YAML::Mark start;
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& m, YAML::anchor_t) override { count(m); }
    void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { count(m); }
    void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string& value) override {
        count(m);
        if (value.find('\0') != std::string::npos) refuse_nul(m);
    }
    // A NUL written as an escape ("\u0000", "\0") was decoded into the manifest's text (the data
    // files' reader refused it, YamlTree.cpp): refused the same way, at the escape. yaml-cpp marks
    // the scalar's start, and marks count lines at '\n' and columns in bytes, so the escape's mark
    // is counted on from there.
    [[noreturn]] void refuse_nul(const YAML::Mark& scalar) const {
        YAML::Mark at = scalar;
        const std::size_t from = static_cast<std::size_t>(std::max(scalar.pos, 0));
        const std::size_t escape = nul_escape(source, std::min(from, source.size()), source.size());
        if (escape == source.size()) throw YAML::ParserException(scalar, "control characters are not allowed (0x00)");
        for (std::size_t i = from; i < escape; ++i) {
            if (source[i] == '\n') {
                ++at.line;
                at.column = 0;
            } else {
                ++at.column;
            }
        }
        at.pos = static_cast<int>(escape);
        throw YAML::ParserException(at, kNulEscapeRefused);
    }
    void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
        open(m);
    }
    void OnSequenceEnd() override { --depth; }
    void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
        open(m);
    }
    void OnMapEnd() override { --depth; }
};

// The node count of text's first document; past kMaxValues a ScriptError at that node.
std::size_t count_nodes(const std::string& text, const std::string& display) {
    NodeCounter counter(display, text);
    std::istringstream stream(text);
    YAML::Parser parser(stream);
    parser.HandleNextDocument(counter);
    // One document per file (as the data files' reader, YamlTree.hpp): a second was ignored.
    NodeCounter rest(display, text);
    if (parser.HandleNextDocument(rest))
        fail(display, rest.start, detail::kSecondDocument);
    return counter.nodes;
}

// The C++ memory of parsing one file (its tree and its text), charged against the Lua memory cap
// for as long as the tree lives, as distributions are (bindings/Game.hpp: charge_memory).
class ParseCharge {
public:
    ParseCharge(lua_State* L, std::size_t nodes, std::size_t text_bytes, const std::string& display)
        : game_(L ? &Game::of(L) : nullptr), bytes_(nodes * kTreeBytesPerNode + text_bytes) {
        if (game_ && !game_->charge_memory(bytes_))
            throw ScriptError(display + ":1:1: memory limit: parsing this file takes ~" + std::to_string(bytes_ >> 20) +
                                  " MiB of C++ memory (" + std::to_string(nodes) +
                                  " YAML nodes), which would pass the Lua memory cap (parsed YAML counts against it)",
                              display, 1);
    }
    ~ParseCharge() {
        if (game_) game_->release_memory(bytes_);
    }
    ParseCharge(const ParseCharge&) = delete;
    ParseCharge& operator=(const ParseCharge&) = delete;

private:
    Game* game_;
    std::size_t bytes_;
};

}  // namespace

std::shared_ptr<const Document> parse(const std::string& text, const std::string& display,
                                      lua_State* charge_to) {
    refuse_if_too_big(text.size(), display);
    refuse_bad_utf8(text, display);
    auto document = std::make_shared<Document>();
    std::size_t nodes = 0;
    const Tree tree = read_tree_events(text, display, [&](const YAML::Mark& m) { count_value(nodes, display, m); });
    const ParseCharge charge(charge_to, nodes, text.size(), display);
    detail::Converter<TreeRef> converter{display};
    // An empty file is an empty table.
    if (!converter.convert(TreeRef(tree, 0), document->root)) document->root.kind = Kind::Map;
    document->heap_bytes = heap_bytes(document->root);
    return document;
}

void push(lua_State* L, const Document& document) {
    const int top = lua_gettop(L);
    marks::Writer writer(L);
    Pusher{L, writer}.push(document.root);
    lua_replace(L, top + 1);  // over the writer's side tables
    lua_settop(L, top + 1);
}

void push_string(lua_State* L, const std::string& text, const std::string& display) {
    push(L, *parse(text, display, L));
}

std::string read_data_file(const std::filesystem::path& file, const std::string& display) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    if (!ec) refuse_if_too_big(size, display);  // refused before it is read
    return LuaHost::read_file(file);
}

void push_file(lua_State* L, const std::filesystem::path& file, const std::string& display) {
    push_string(L, read_data_file(file, display), display);
}

YAML::Node parse_tree(const std::string& text, const std::string& display) {
    refuse_if_too_big(text.size(), display);
    refuse_bad_utf8(text, display);
    // yaml-cpp's parser reads a manifest at ~1,400 instructions a byte, and the counter's pass
    // doubled that: the manifests were ~23% of a cold start of all shipped rulesets (session 37).
    // libyaml reads the text in about a fifth of the time (YamlTree.hpp); its pass decides only
    // that the text is far from every bound the counter checks (half of each), and anything else
    // (a syntax error, a NUL, a second document, a large or deep tree) goes through the counter,
    // so every error is the one this reader gave before, at the same place.
    if (!reads_plainly(text, kMaxValues / 2, kMaxTreeDepth / 2))
        count_nodes(text, display);  // YAML::Exception passes through, as from YAML::Load
    return YAML::Load(text);
}

namespace {
// Each container once, by its place: an alias is the anchored node again (its mark too), and an
// alias bomb's tree, walked through its aliases, is exponential.
void repeated_keys(const YAML::Node& node, const std::string& display, std::unordered_set<int>& seen_at) {
    if (!node.IsSequence() && !node.IsMap()) return;
    if (!seen_at.insert(node.Mark().pos).second) return;
    if (node.IsSequence())
        for (const auto& item : node) repeated_keys(item, display, seen_at);
    if (!node.IsMap()) return;
    std::unordered_set<std::string> seen;
    for (const auto& entry : node) {
        if (entry.first.IsScalar() && !seen.insert(entry.first.Scalar()).second) {
            int first = 0;
            for (const auto& earlier : node)
                if (earlier.first.IsScalar() && earlier.first.Scalar() == entry.first.Scalar()) {
                    first = earlier.first.Mark().line + 1;
                    break;
                }
            fail(display, entry.first.Mark(), "duplicate key '" + entry.first.Scalar() + "' (first defined at line " +
                                                  std::to_string(first) + ")");
        }
        repeated_keys(entry.second, display, seen_at);
    }
}
}  // namespace

void refuse_repeated_keys(const YAML::Node& node, const std::string& display) {
    std::unordered_set<int> seen_at;
    repeated_keys(node, display, seen_at);
}

YAML::Node read_tree(const std::filesystem::path& file, const std::string& display) {
    return parse_tree(read_data_file(file, display), display);
}

}  // namespace umpire::yaml
