// The data files' parser (libyaml's events, ruleset/YamlTree.hpp) against the one it replaced
// (yaml-cpp's YAML::Load, still behind yaml::parse_tree), both through the same checks
// (ruleset/YamlConvert.hpp): over every YAML file of the checkout and hundreds of mutations of
// them, each document gives the same values, marks and table sizes, or the same error.
//
// Errors: an error of the loader's own (duplicate key, empty list item, merge key, tag, number
// range, depth, value count) must be the same text, place included. A syntax
// error is worded by each parser in its own way, so there only the outcome must agree: both
// refuse. Where the two parsers disagree on what is valid YAML, the test knows the cases and why
// (kKnownDifferences below), and fails on any other.
#include <catch2/catch.hpp>

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <sstream>

#include "host/LuaHost.hpp"
#include "ruleset/YamlConvert.hpp"
#include "ruleset/YamlLoader.hpp"

namespace fs = std::filesystem;
using umpire::yaml::Document;
using umpire::yaml::Kind;
using umpire::yaml::Value;

namespace {

// What one parser made of a document.
struct Outcome {
    std::shared_ptr<const Document> document;
    std::string error;
    bool syntax = false;  // the error is the parser's own wording
};

// The loader as it was: yaml-cpp's tree (parse_tree: the size bound and the node count from
// yaml-cpp's events, then YAML::Load), converted by the same Converter.
Outcome old_parse(const std::string& text, const std::string& display) {
    Outcome o;
    try {
        const YAML::Node root = umpire::yaml::parse_tree(text, display);
        auto document = std::make_shared<Document>();
        umpire::yaml::detail::Converter<YAML::Node> converter{display};
        if (!converter.convert(root, document->root)) document->root.kind = Kind::Map;
        o.document = document;
    } catch (const YAML::Exception& e) {  // syntax, an undefined anchor, yaml-cpp's depth guard
        o.error = umpire::yaml::detail::mark_text(display, e.mark) + ": " + e.msg;
        o.syntax = true;
    } catch (const umpire::ScriptError& e) {
        o.error = e.what();
    }
    return o;
}

Outcome new_parse(const std::string& text, const std::string& display) {
    Outcome o;
    try {
        o.document = umpire::yaml::parse(text, display);
    } catch (const umpire::ScriptError& e) {
        o.error = e.what();
    }
    return o;
}

// The first difference between two values, as a path and the two sides, or "".
std::string difference(const Value& a, const Value& b, const std::string& path) {
    const auto show = [](const Value& v) {
        std::ostringstream s;
        s << "kind " << int(v.kind) << " bool " << v.boolean << " number " << v.number << " text '" << v.text
          << "' size " << v.size_hint << " entries " << v.entries.size();
        return s.str();
    };
    const bool numbers_equal = a.number == b.number || (std::isnan(a.number) && std::isnan(b.number));
    if (a.kind != b.kind || a.boolean != b.boolean || !numbers_equal || a.text != b.text ||
        a.key_marks != b.key_marks || a.size_hint != b.size_hint || a.entries.size() != b.entries.size())
        return path + ": old " + show(a) + " / new " + show(b);
    for (std::size_t i = 0; i < a.entries.size(); ++i) {
        const auto& x = a.entries[i];
        const auto& y = b.entries[i];
        if (x.key_line != y.key_line || x.key_column != y.key_column)
            return path + "[" + std::to_string(i) + "] key mark " + std::to_string(x.key_line) + ":" +
                   std::to_string(x.key_column) + " / " + std::to_string(y.key_line) + ":" + std::to_string(y.key_column);
        if (auto d = difference(x.key, y.key, path + "[" + std::to_string(i) + "].key"); !d.empty()) return d;
        if (auto d = difference(x.value, y.value, path + "[" + std::to_string(i) + "]"); !d.empty()) return d;
    }
    return "";
}

// "doc.yaml:L:C: message" split, or line 0 when it is not in that form.
struct Place {
    int line = 0, column = 0;
    std::string message;
};
Place place_of(const std::string& error) {
    Place p;
    if (std::sscanf(error.c_str(), "doc.yaml:%d:%d:", &p.line, &p.column) == 2)
        p.message = error.substr(error.find(": ") + 2);
    return p;
}

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

// The 1-based number of the last line of text with anything but blanks on it.
int last_content_line(const std::string& text) {
    int line = 1, last = 0;
    bool blank = true;
    for (char c : text) {
        if (c == '\n') {
            if (!blank) last = line;
            ++line;
            blank = true;
        } else if (c != ' ' && c != '\t' && c != '\r') {
            blank = false;
        }
    }
    return blank ? last : line;
}

// The character at 1-based line and column of text, or '\0' past its end.
char char_at(const std::string& text, int line, int column) {
    std::size_t at = 0;
    for (int l = 1; l < line; ++l) {
        at = text.find('\n', at);
        if (at == std::string::npos) return '\0';
        ++at;
    }
    at += static_cast<std::size_t>(column - 1);
    return column >= 1 && at < text.size() ? text[at] : '\0';
}

// Whether the character at 1-based line and column of text is a tab.
bool tab_at(const std::string& text, int line, int column) { return char_at(text, line, column) == '\t'; }

// The documents on which the parsers disagree, each kind with its reason (docs/performance.md):
//  1. yaml-cpp read a document whose last line is cut short (a map key without its ':', a quoted
//     scalar never closed) as if it were whole; that is not YAML, and libyaml refuses it, on that
//     line. (yaml-cpp then went on to report the loader's own errors of earlier lines, if any.)
//  2. A map entry without a key (`: 1`, `{a: 1, : 2}`): yaml-cpp read a null key, which the loader
//     refused ("a map key must be a plain value"); libyaml refuses the syntax, at the same place.
//  3. A control character (other than tab and line breaks): YAML does not allow one; yaml-cpp read
//     it as text, libyaml refuses it at its place.
//  4. A lone carriage return (old Mac line ends): a line break in YAML, which yaml-cpp did not
//     know (it refused the document or read the CR as text); libyaml reads the lines.
//  5. A tab after a block indicator (`- \tx`, `? \tx`): YAML 1.2 allows a tab there as separation
//     (the spec's example 6.2) and yaml-cpp read it; libyaml refuses it ("found character that cannot
//     start any token") at the tab's place. A mutation that puts a tab there is no loader bug.
//  6. A key given twice through an alias (`? &k a`, then `*k :`): yaml-cpp's node is the anchored
//     one, with the anchor's mark, so the old loader refused it at the anchor; the loader names
//     the alias (TreeRef::WrittenMark), where the key was written the second time.
bool known_difference(const std::string& text, const Outcome& old_outcome, const Outcome& new_outcome, std::string& why) {
    const Place o = place_of(old_outcome.error), n = place_of(new_outcome.error);
    const bool cut_short = (starts_with(n.message, "could not find expected ':'") ||
                            starts_with(n.message, "found unexpected end of stream")) &&
                           n.line >= last_content_line(text);
    if (!old_outcome.syntax && !new_outcome.error.empty() && cut_short) {
        why = "last line cut short";
        return true;
    }
    const bool no_key = o.message == "a map key must be a plain value" && o.line == n.line && o.column == n.column &&
                        (starts_with(n.message, "did not find expected key") ||
                         starts_with(n.message, "did not find expected node content"));
    if (no_key) {
        why = "map entry without a key";
        return true;
    }
    if (starts_with(n.message, "control characters are not allowed") && !old_outcome.syntax) {
        why = "control character";
        return true;
    }
    if (starts_with(n.message, "found character that cannot start any token") && old_outcome.document &&
        tab_at(text, n.line, n.column)) {
        why = "tab after a block indicator";
        return true;
    }
    if (starts_with(o.message, "duplicate key '") && starts_with(n.message, "duplicate key '") &&
        o.message.substr(0, o.message.find("' (")) == n.message.substr(0, n.message.find("' (")) &&
        char_at(text, n.line, n.column) == '*') {
        why = "key repeated through an alias";
        return true;
    }
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) {
            why = "lone carriage return";
            return true;
        }
    return false;
}

struct Tally {
    int same_values = 0, same_error = 0, both_syntax = 0, known = 0;
};

// Compares the two parsers on text; a difference fails the test with the document shown.
void compare(const std::string& text, const std::string& name, Tally& tally) {
    const Outcome a = old_parse(text, "doc.yaml");
    const Outcome b = new_parse(text, "doc.yaml");
    INFO(name << "\n---- document ----\n" << text.substr(0, 2000) << "\n---- old: " << a.error << "\n---- new: " << b.error);
    std::string why;
    if (known_difference(text, a, b, why)) {
        ++tally.known;
        return;
    }
    if (a.document && b.document) {
        const std::string d = difference(a.document->root, b.document->root, "root");
        INFO(d);
        CHECK(d.empty());
        ++tally.same_values;
    } else if (a.syntax) {
        CHECK_FALSE(b.error.empty());
        ++tally.both_syntax;
    } else {
        CHECK(a.error == b.error);
        ++tally.same_error;
    }
}

std::vector<fs::path> yaml_files() {
    std::vector<fs::path> out;
    const fs::path root(UMPIRE_SOURCE_DIR);
    for (const char* dir : {"rulesets", "tests", "schemas", "scripts"}) {
        if (!fs::is_directory(root / dir)) continue;
        for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
            if (!e.is_regular_file()) continue;
            const auto ext = e.path().extension();
            const bool corpus = e.path().parent_path().filename() == "yaml" &&
                                e.path().parent_path().parent_path().filename() == "corpus";
            if (ext == ".yaml" || ext == ".yml" || corpus) out.push_back(e.path());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// A random change of the kind an author's typo makes: a character of YAML's syntax inserted,
// deleted or replaced, a line doubled, dropped or re-indented, the text cut short.
std::string mutate(std::mt19937& rng, std::string text) {
    static const std::string kAlphabet = ":-[]{},#&*!|>'\"\n ~?%@`\t<=01.xe+\\";
    const auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
    const int edits = 1 + static_cast<int>(pick(3));
    for (int e = 0; e < edits && !text.empty(); ++e) {
        const std::size_t at = pick(text.size());
        switch (pick(7)) {
        case 0: text.insert(at, 1, kAlphabet[pick(kAlphabet.size())]); break;
        case 1: text.erase(at, 1); break;
        case 2: text[at] = kAlphabet[pick(kAlphabet.size())]; break;
        case 3: {  // a line doubled
            const std::size_t start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
            const std::size_t end = std::min(text.find('\n', at), text.size());
            text.insert(start, text.substr(start, end - start) + "\n");
            break;
        }
        case 4: {  // a line dropped
            const std::size_t start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
            const std::size_t end = std::min(text.find('\n', at), text.size());
            text.erase(start, end - start);
            break;
        }
        case 5: {  // a line indented by one or two more
            const std::size_t start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
            text.insert(start, std::string(1 + pick(2), ' '));
            break;
        }
        default: text.resize(at); break;
        }
    }
    return text;
}

// A random document: nested block and flow maps and lists, scalars of every style (plain words,
// numbers of each notation, booleans and nulls in their spellings, quoted, block scalars, text
// with multi-byte characters), comments, anchors and aliases; sometimes a key repeated or an item
// left empty, so that the loader's own errors come up too.
struct Generator {
    std::mt19937& rng;
    std::vector<std::string> anchors;
    int next_anchor = 0;

    std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); }

    std::string scalar() {
        static const std::vector<std::string> kScalars = {
            "word", "two words", "12", "-3", "+4.5", "1e3", ".5", "0x1F", "0o17", "0b101", ".inf", "-.Inf", ".nan",
            "true", "False", "TRUE", "yes", "No", "on", "~", "null", "Null", "", "'quoted'", "\"dq \\u00e9\"",
            "'it''s'", "é", "größe", "½", "3+", "1/2", "12:30", "2026-11-24", "a b  c", "x # not a comment",
            "\"\"", "''", "!!str 5", "!!int 7", "!foo bar", "-", "<<", "\"<<\"", "1_000", "0.", "00", "+0"};
        return kScalars[pick(kScalars.size())];
    }

    std::string key() {
        static const std::vector<std::string> kKeys = {"a", "b", "name", "1", "2", "\"1\"", "é", "x y", "true",
                                                       "null", "~", "'q'", "3.5", "k"};
        return kKeys[pick(kKeys.size())];
    }

    std::string properties() {
        if (pick(8) == 0) {
            anchors.push_back("a" + std::to_string(next_anchor++));
            return "&" + anchors.back() + " ";
        }
        return "";
    }

    std::string flow(int depth) {
        if (depth > 2 || pick(3) == 0) return scalar().empty() ? "~" : scalar();
        if (!anchors.empty() && pick(6) == 0) return "*" + anchors[pick(anchors.size())];
        std::string out = properties();
        const bool map = pick(2) == 0;
        out += map ? "{" : "[";
        const std::size_t n = pick(4);
        for (std::size_t i = 0; i < n; ++i) {
            if (i) out += pick(3) == 0 ? " ,  " : ", ";
            if (map) out += key() + ": ";
            out += flow(depth + 1);
        }
        return out + (map ? "}" : "]");
    }

    // A block node at `indent`, written after "key:" or "- ".
    std::string block(int indent, int depth) {
        const std::string pad(indent, ' ');
        switch (depth > 3 ? 0 : pick(5)) {
        case 0: return " " + scalar() + (pick(5) == 0 ? "  # c" : "") + "\n";
        case 1: return " " + flow(0) + "\n";
        case 2: return " |\n" + pad + "  line one\n" + pad + "  line two é\n";
        case 3: {
            std::string out = " " + properties() + "\n";
            const std::size_t n = 1 + pick(4);
            for (std::size_t i = 0; i < n; ++i) out += pad + "  " + key() + ":" + block(indent + 2, depth + 1);
            return out;
        }
        default: {
            std::string out = " " + properties() + "\n";
            const std::size_t n = 1 + pick(4);
            for (std::size_t i = 0; i < n; ++i)
                out += pad + (pick(2) ? "  -" : "-") + (pick(12) == 0 ? std::string("\n") : block(indent + 2, depth + 1));
            return out;
        }
        }
    }

    std::string document() {
        anchors.clear();
        std::string out = pick(4) == 0 ? "# a comment\n" : "";
        const std::size_t n = 1 + pick(5);
        for (std::size_t i = 0; i < n; ++i) out += key() + ":" + block(0, 0);
        return out;
    }
};

}  // namespace

TEST_CASE("libyaml's events and yaml-cpp agree on random documents", "[yaml][differential]") {
    Tally tally;
    std::mt19937 rng(18);
    Generator generate{rng, {}};
    for (int i = 0; i < 400; ++i) compare(generate.document(), "random " + std::to_string(i), tally);
    INFO("same values " << tally.same_values << ", same error " << tally.same_error << ", both syntax errors "
                        << tally.both_syntax << ", known differences " << tally.known);
    CHECK(tally.same_values > 50);
    CHECK(tally.same_error > 50);
}

TEST_CASE("libyaml's events load every YAML file of the checkout as yaml-cpp did", "[yaml][differential]") {
    Tally tally;
    const auto files = yaml_files();
    REQUIRE(files.size() > 20);
    for (const auto& file : files) compare(umpire::LuaHost::read_file(file), file.string(), tally);
    CHECK(tally.same_values > 20);
}

TEST_CASE("libyaml's events and yaml-cpp agree on mutated YAML", "[yaml][differential]") {
    Tally tally;
    const auto files = yaml_files();
    std::mt19937 rng(2026);
    std::vector<std::string> texts;
    for (const auto& file : files) {
        std::string text = umpire::LuaHost::read_file(file);
        if (text.size() < 20000) texts.push_back(std::move(text));
    }
    REQUIRE(!texts.empty());
    for (int i = 0; i < 600; ++i) {
        const std::string& base = texts[std::uniform_int_distribution<std::size_t>(0, texts.size() - 1)(rng)];
        compare(mutate(rng, base), "mutation " + std::to_string(i), tally);
    }
    INFO("same values " << tally.same_values << ", same error " << tally.same_error << ", both syntax errors "
                        << tally.both_syntax << ", known differences " << tally.known);
    CHECK(tally.same_values > 100);
    CHECK(tally.same_error > 10);
    CHECK(tally.both_syntax > 10);
}

TEST_CASE("libyaml's events and yaml-cpp agree on the loader's own errors and marks", "[yaml][differential]") {
    Tally tally;
    const std::vector<std::string> docs = {
        "a: 1\na: 2\n",
        "- 1\n-\n- 2\n",
        "- 1\n-\n",
        "- 1\n-   # comment\n\n  - 2\n",
        "x:\n  -\ny: 1\n",
        "[1, ~, 2]\n",
        "<<: {a: 1}\n",
        "\"<<\": 1\n",
        "a: !!binary aGk=\n",
        "a: !foo x\n",
        "a: !!str 12\nb: !!int '7'\n",
        "a: &x [1, *x]\n",
        "a: *nope\n",
        "a: 1e999\n",
        "? [1]\n: 2\n",
        ": 1\n",
        "!!null ~: 1\n",
        "a: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n",
        "é: ü\nü: [é, x, 'é']\nk: {é: 1, x: 2}\n",
        "a: 1\r\nb:\r\n  - x\r\n  - y\r\n",
        "\xEF\xBB\xBF" "a: 1\n",
        "",
        "# only a comment\n",
        "---\n",
        "~\n",
        "a: 1\n---\nb: 2\n",
        "a: |\n  text\n  more\nb: >\n  folded\n  text\nc: 'q'\nd: \"dq\\n\"\n",
        "a: &a {x: 1}\nb: *a\nc: [*a, *a]\n",
        "1: a\n\"1\": b\n",
        ".nan: 1\n",
        "a: 0x1F\nb: 0o17\nc: .inf\nd: -.Inf\ne: +1.5e3\nf: True\ng: FALSE\nh: yes\ni: 1_000\n",
        "a:\n  b:\n    c: [1, {d: e}]\n  f: -\n",
        "- 1\n-  ",
        "- 1\n-",
        "a:\n  - 1\n  -  ",
        "a:\n  - 1\n  -  # c",
        "a:\n  - 1\n  -\n\n",
        "a: b\x01c\n",
        std::string("a: 1\n\0b: 2\n", 12),
        "a: \"x\ty\"\nb:\tc\n",
        "a:\n\t- 1\n",
        "a: 1\rb: 2\r",
        "a: x\xC2\x85y\nb: \xE2\x80\xA8z\n",
        "%YAML 1.2\n---\na: 1\n",
        "%TAG !e! tag:example.com,2000:\n---\na: !e!foo x\n",
        "a: !<tag:yaml.org,2002:str> 5\n",
        "? a\n: 1\n? b\n",
        "modules:\n  - rules/a.lua\n  - \tules/b.lua\n",
    };
    for (std::size_t i = 0; i < docs.size(); ++i) compare(docs[i], "case " + std::to_string(i), tally);
    CHECK(tally.same_error >= 8);
}

TEST_CASE("what yaml-cpp read and libyaml refuses is refused at its place", "[yaml][differential]") {
    CHECK(new_parse("a: 1\nb: x\x01y\n", "doc.yaml").error == "doc.yaml:2:5: control characters are not allowed (0x01)");
    CHECK(new_parse("a: 1\nb: [1, 2\n", "doc.yaml").error.rfind("doc.yaml:3:1: ", 0) == 0);
    const auto cr = new_parse("a: 1\rb: 2\r", "doc.yaml");
    REQUIRE(cr.document);
    CHECK(cr.document->root.entries.size() == 2);
}
