#include "ruleset/YamlTree.hpp"

#include <yaml.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string_view>
#include <unordered_map>

#include "ruleset/YamlConvert.hpp"

namespace umpire::yaml {
namespace {

// Where libyaml's marks (characters from the start, libyaml's own lines) land in yaml-cpp's terms
// (bytes, lines at '\n'). Text that is all ASCII maps characters to bytes one to one; other text
// keeps the byte offset of every character (the text is known to be well-formed UTF-8).
class Positions {
public:
    explicit Positions(const std::string& text) : text_(text) {
        line_starts_.push_back(0);
        bool ascii = true;
        for (std::size_t i = 0; i < text.size(); ++i) {
            const auto c = static_cast<unsigned char>(text[i]);
            if (c == '\n') line_starts_.push_back(i + 1);
            if (c >= 0x80) ascii = false;
        }
        if (ascii) return;
        for (std::size_t i = 0; i < text.size(); ++i)
            if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) byte_of_char_.push_back(i);
        byte_of_char_.push_back(text.size());
    }

    std::size_t byte(std::size_t char_index) const {
        if (byte_of_char_.empty()) return std::min(char_index, text_.size());
        return byte_of_char_[std::min(char_index, byte_of_char_.size() - 1)];
    }

    YAML::Mark at_byte(std::size_t offset) const {
        const auto line = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset) - line_starts_.begin() - 1;
        YAML::Mark m;
        m.pos = static_cast<int>(offset);
        m.line = static_cast<int>(line);
        m.column = static_cast<int>(offset - line_starts_[line]);
        return m;
    }

    YAML::Mark mark(const yaml_mark_t& m) const { return at_byte(byte(m.index)); }

    // The start of the next token at or after byte offset: past blanks, line breaks and
    // comments (where yaml-cpp put the mark of an empty list item); at the end of the text,
    // yaml-cpp's mark is the start of the last line.
    YAML::Mark next_token(std::size_t offset) const {
        const std::size_t n = text_.size();
        while (offset < n) {
            const char c = text_[offset];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                ++offset;
            } else if (c == '#') {
                while (offset < n && text_[offset] != '\n') ++offset;
            } else {
                return at_byte(offset);
            }
        }
        YAML::Mark end = at_byte(n);
        end.pos -= end.column;
        end.column = 0;
        return end;
    }

private:
    const std::string& text_;
    std::vector<std::size_t> line_starts_;
    std::vector<std::size_t> byte_of_char_;  // empty for ASCII text
};

// Compared as string_views (size first): std::string == "literal" measured the literal each time.
bool is_null_text(std::string_view text) {
    using namespace std::string_view_literals;
    return text.empty() || text == "~"sv || text == "null"sv || text == "Null"sv || text == "NULL"sv;
}

struct Parser {
    yaml_parser_t parser;
    Parser() { yaml_parser_initialize(&parser); }
    ~Parser() { yaml_parser_delete(&parser); }
    Parser(const Parser&) = delete;
    Parser& operator=(const Parser&) = delete;
};

struct Event {
    yaml_event_t event;
    ~Event() { yaml_event_delete(&event); }
};

std::string text_of(const yaml_char_t* s) { return s ? reinterpret_cast<const char*>(s) : std::string(); }

}  // namespace

std::size_t nul_escape(const std::string& source, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i + 1 < to; ++i) {
        if (source[i] != '\\') continue;
        const char kind = source[i + 1];
        const std::size_t digits = kind == '0' ? 0 : kind == 'x' ? 2 : kind == 'u' ? 4 : kind == 'U' ? 8 : std::string::npos;
        if (digits != std::string::npos && i + 2 + digits <= to &&
            source.compare(i + 2, digits, std::string(digits, '0')) == 0)
            return i;
        ++i;  // the escaped character (a backslash after a backslash starts nothing)
    }
    return to;
}

// The same events as read_tree_events, only counted: a node for each scalar, alias and
// collection start, the depth of open collections, and whether a second document starts.
bool reads_plainly(const std::string& text, std::size_t max_nodes, std::size_t max_depth) {
    Parser p;
    yaml_parser_set_input_string(&p.parser, reinterpret_cast<const unsigned char*>(text.data()), text.size());
    std::size_t nodes = 0, depth = 0;
    bool document_ended = false;
    for (;;) {
        Event e;
        if (!yaml_parser_parse(&p.parser, &e.event)) return false;
        const yaml_event_t& ev = e.event;
        switch (ev.type) {
        case YAML_SCALAR_EVENT:
            if (std::string_view(reinterpret_cast<const char*>(ev.data.scalar.value), ev.data.scalar.length)
                    .find('\0') != std::string_view::npos)
                return false;
            [[fallthrough]];
        case YAML_ALIAS_EVENT:
            if (++nodes > max_nodes) return false;
            break;
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT:
            if (++nodes > max_nodes || ++depth > max_depth) return false;
            break;
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: --depth; break;
        case YAML_DOCUMENT_START_EVENT:
            if (document_ended) return false;
            break;
        case YAML_DOCUMENT_END_EVENT: document_ended = true; break;
        case YAML_STREAM_END_EVENT: return true;
        default: break;
        }
    }
}

// The event loop: each node event makes a node, appended to the collection open at that point
// (a stack of open sequences and maps); an alias appends the anchored node's index again.
Tree read_tree_events(const std::string& text, const std::string& display,
                      const std::function<void(const YAML::Mark&)>& count) {
    const std::string& source = text;  // the scalar events' `text` is their decoded value
    const Positions positions(text);
    Parser p;
    yaml_parser_set_input_string(&p.parser, reinterpret_cast<const unsigned char*>(text.data()), text.size());
    Tree tree;
    // About one node for every 12 bytes of a data file; reserved up to a bound, so that a large
    // file is not given its whole tree before the node count has looked at it.
    tree.nodes.reserve(std::min<std::size_t>(text.size() / 12 + 1, 4096));
    std::vector<std::uint32_t> open;
    std::unordered_map<std::string, std::uint32_t> anchors;
    bool document_ended = false;
    // The node is made in place (a node built aside and moved in was moved, then destroyed: two
    // strings and a vector each time); the caller fills in the rest of it.
    const auto add = [&](YAML::NodeType::value type, const YAML::Mark& mark, const yaml_char_t* anchor) -> TreeNode& {
        count(mark);
        const auto index = static_cast<std::uint32_t>(tree.nodes.size());
        if (!open.empty()) tree.nodes[open.back()].children.push_back(index);
        if (anchor) anchors[text_of(anchor)] = index;
        TreeNode& node = tree.nodes.emplace_back();
        node.type = type;
        node.mark = mark;
        return node;
    };
    for (;;) {
        Event e;
        if (!yaml_parser_parse(&p.parser, &e.event)) {
            std::string what = p.parser.problem ? p.parser.problem : "YAML syntax error";
            if (p.parser.error == YAML_READER_ERROR) {  // placed by a byte offset, not a mark
                char value[16];
                std::snprintf(value, sizeof value, " (0x%02X)", static_cast<unsigned>(p.parser.problem_value));
                detail::fail(display, positions.at_byte(p.parser.problem_offset), what + value);
            }
            // After the document's end, whatever follows is refused as a second document, as
            // yaml-cpp's reader of manifests finds it (libyaml: "did not find expected <document
            // start>", at the same place).
            if (document_ended) detail::fail(display, positions.mark(p.parser.problem_mark), detail::kSecondDocument);
            if (p.parser.context) {
                const YAML::Mark c = positions.mark(p.parser.context_mark);
                what += " (" + std::string(p.parser.context) + " at " + std::to_string(c.line + 1) + ":" +
                        std::to_string(c.column + 1) + ")";
            }
            detail::fail(display, positions.mark(p.parser.problem_mark), what);
        }
        const yaml_event_t& ev = e.event;
        switch (ev.type) {
        case YAML_SCALAR_EVENT: {
            const std::string_view text(reinterpret_cast<const char*>(ev.data.scalar.value), ev.data.scalar.length);
            const bool plain = ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
            const auto type = plain && !ev.data.scalar.tag && is_null_text(text) ? YAML::NodeType::Null : YAML::NodeType::Scalar;
            // An empty scalar right after a `-` is an empty list item; yaml-cpp marked it at the next token.
            const bool empty_item = text.empty() && plain && ev.start_mark.index == ev.end_mark.index &&
                                    !ev.data.scalar.anchor && !ev.data.scalar.tag && !open.empty() &&
                                    tree.nodes[open.back()].type == YAML::NodeType::Sequence;
            TreeNode& node = add(type,
                                 empty_item ? positions.next_token(positions.byte(ev.start_mark.index))
                                            : positions.mark(ev.start_mark),
                                 ev.data.scalar.anchor);
            // A raw NUL is refused by libyaml's reader ("control characters are not allowed"), but
            // an escape of one was decoded into the string: refused the same way, at the escape.
            if (text.find('\0') != std::string_view::npos) {
                const std::size_t from = positions.byte(ev.start_mark.index), to = positions.byte(ev.end_mark.index);
                const std::size_t at = nul_escape(source, from, to);
                detail::fail(display, positions.at_byte(at < to ? at : from), kNulEscapeRefused);
            }
            node.text.assign(text);
            if (ev.data.scalar.tag) node.tag = text_of(ev.data.scalar.tag);
            else node.tag.assign(1, plain ? '?' : '!');
            break;
        }
        case YAML_SEQUENCE_START_EVENT:
        case YAML_MAPPING_START_EVENT: {
            const bool map = ev.type == YAML_MAPPING_START_EVENT;
            const yaml_char_t* tag = map ? ev.data.mapping_start.tag : ev.data.sequence_start.tag;
            const auto index = static_cast<std::uint32_t>(tree.nodes.size());
            TreeNode& node = add(map ? YAML::NodeType::Map : YAML::NodeType::Sequence, positions.mark(ev.start_mark),
                                 map ? ev.data.mapping_start.anchor : ev.data.sequence_start.anchor);
            if (tag) node.tag = text_of(tag);
            else node.tag.assign(1, '?');
            open.push_back(index);
            break;
        }
        case YAML_SEQUENCE_END_EVENT:
        case YAML_MAPPING_END_EVENT: open.pop_back(); break;
        case YAML_ALIAS_EVENT: {
            const YAML::Mark mark = positions.mark(ev.start_mark);
            const auto it = anchors.find(text_of(ev.data.alias.anchor));
            if (it == anchors.end()) detail::fail(display, mark, "the referenced anchor is not defined: " + text_of(ev.data.alias.anchor));
            count(mark);  // one node, as yaml-cpp's events counted an alias
            if (!open.empty()) {
                auto& children = tree.nodes[open.back()].children;
                tree.aliases.push_back({open.back(), static_cast<std::uint32_t>(children.size()), mark});
                children.push_back(it->second);
            }
            break;
        }
        // One document per file: a second one (after `---`) was ignored without a word, so half
        // a file could be dropped by a stray separator. The rest of the stream is parsed to see.
        case YAML_DOCUMENT_START_EVENT:
            if (document_ended) detail::fail(display, positions.mark(ev.start_mark), detail::kSecondDocument);
            break;
        case YAML_DOCUMENT_END_EVENT: document_ended = true; break;
        case YAML_STREAM_END_EVENT:
            if (tree.nodes.empty()) tree.nodes.emplace_back();  // an empty document: one Null node
            return tree;
        default: break;
        }
    }
}

}  // namespace umpire::yaml
