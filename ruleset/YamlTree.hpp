// A YAML document's nodes read with libyaml's event parser, in yaml-cpp's node model, for the data
// files (YamlLoader's parse()). yaml-cpp's scanner matched every character against its RegEx
// objects and took over half of a cold start; libyaml's parser reads the same text in about a
// fifth of the time. The loader's checks are unchanged: they run over this tree through the same
// Converter that read yaml-cpp's (ruleset/YamlConvert.hpp), so the node model is yaml-cpp's:
//  - a plain scalar without a tag that is empty, ~, null, Null or NULL is a Null node; any other
//    scalar, and a tagged empty node, is a Scalar with its tag: "?" for an untagged plain scalar,
//    "!" for an untagged quoted or block scalar, else the tag as written, resolved ("!!str" is
//    "tag:yaml.org,2002:str"). Scalars are never typed here: libyaml is YAML 1.1, and the core
//    schema 1.2 typing is the Converter's.
//  - an alias is the anchored node itself (the same index), as in yaml-cpp's graph, so its mark
//    is the anchor's and a cycle (`&a [*a]`) is a cycle; an anchor is defined from the start of
//    its node on.
//  - marks are yaml-cpp's: 0-based, lines counted at '\n', columns in bytes (libyaml counts
//    characters and also breaks lines at '\r', NEL, LS and PS); an empty list item (`-` with
//    nothing after it) is marked where the next token starts, as yaml-cpp marked it.
// A file holds one document: a second one is an error at its `---` (YAML::Load read the first
// and ignored the rest).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <yaml-cpp/mark.h>
#include <yaml-cpp/node/type.h>

namespace umpire::yaml {

struct TreeNode {
    YAML::NodeType::value type = YAML::NodeType::Null;
    YAML::Mark mark;
    std::string text;                     // a scalar's value
    std::string tag;                      // see above
    std::vector<std::uint32_t> children;  // a sequence's items; a map's key, value, key, value, ...
};

struct Tree {
    std::vector<TreeNode> nodes;  // nodes[0] is the root (a Null node for an empty document)
    // Where each alias was written: the child `slot` of node `parent` is an alias, at `mark` (the
    // child is the anchored node, with the anchor's mark). Kept beside the nodes, not in them: few
    // files have aliases, and it is read only to place an error (TreeRef::WrittenMark).
    struct Alias {
        std::uint32_t parent, slot;
        YAML::Mark mark;
    };
    std::vector<Alias> aliases;
};

// The tree of text's document (one per file). A syntax error or an alias of an undefined anchor is a
// ScriptError "display:line:col: message". count(mark) is called for each node as it is read
// (an alias once, as yaml-cpp's events counted it), and may throw to stop at a bound.
Tree read_tree_events(const std::string& text, const std::string& display,
                      const std::function<void(const YAML::Mark&)>& count);

// Whether libyaml reads text as one document of at most max_nodes nodes (an alias counts one),
// nested at most max_depth deep, with no NUL in a scalar's value. Anything else (a syntax error
// included) is false, without a word: the caller then asks its exact reader, whose error is the
// message. This is the fast pass in front of yaml-cpp's node counter (YamlLoader.cpp, parse_tree):
// it can only say that a text is far from every bound that counter checks.
bool reads_plainly(const std::string& text, std::size_t max_nodes, std::size_t max_depth);

// The byte offset, within source[from, to) (a double-quoted scalar as written), of the first
// escape that decodes to a NUL: \0, \x00, \u0000 or \U00000000; `to` if none is found. Both YAML
// readers (this one for data files, YamlLoader's yaml-cpp path for manifests) refuse a NUL written
// so at the escape, as libyaml's reader refuses a raw one: Lua and C++ strings would hold it, and
// every C string made of the text ends there.
std::size_t nul_escape(const std::string& source, std::size_t from, std::size_t to);
inline const char* const kNulEscapeRefused = "control characters are not allowed (0x00, written as an escape)";

// A node of a Tree with the part of YAML::Node's interface the Converter reads.
class TreeRef {
public:
    TreeRef(const Tree& tree, std::uint32_t index) : tree_(&tree), index_(index) {}
    const TreeNode& node() const { return tree_->nodes[index_]; }
    YAML::NodeType::value Type() const { return node().type; }
    bool IsScalar() const { return Type() == YAML::NodeType::Scalar; }
    bool IsSequence() const { return Type() == YAML::NodeType::Sequence; }
    bool IsMap() const { return Type() == YAML::NodeType::Map; }
    bool IsNull() const { return Type() == YAML::NodeType::Null; }
    const std::string& Scalar() const { return node().text; }
    const std::string& Tag() const { return node().tag; }
    YAML::Mark Mark() const { return node().mark; }
    // Where this node was written: an alias's own mark for a child written as one (a key given
    // twice through `*k` is refused at the alias, not at the anchor), else Mark(). Searched, on
    // the error paths only.
    YAML::Mark WrittenMark() const {
        if (parent_ != kNoParent)
            for (const Tree::Alias& alias : tree_->aliases)
                if (alias.parent == parent_ && alias.slot == slot_) return alias.mark;
        return Mark();
    }
    std::size_t size() const { return IsMap() ? node().children.size() / 2 : node().children.size(); }

    // Iteration as over a YAML::Node: each item is a node (a sequence's) with first/second (a
    // map's key and value).
    struct Item;
    class Iterator;
    Iterator begin() const;
    Iterator end() const;

private:
    static constexpr std::uint32_t kNoParent = 0xffffffff;
    // A child reached through an iterator: its parent node and slot (WrittenMark).
    TreeRef(const Tree& tree, std::uint32_t index, std::uint32_t parent, std::uint32_t slot)
        : tree_(&tree), index_(index), parent_(parent), slot_(slot) {}
    const Tree* tree_;
    std::uint32_t index_;
    std::uint32_t parent_ = kNoParent, slot_ = 0;
};

struct TreeRef::Item : TreeRef {
    TreeRef first, second;
    Item(TreeRef self, TreeRef key, TreeRef value) : TreeRef(self), first(key), second(value) {}
};

class TreeRef::Iterator {
public:
    Iterator(const Tree& tree, const TreeNode& node, std::size_t at) : tree_(&tree), node_(&node), at_(at) {}
    Item operator*() const {
        const auto& c = node_->children;
        const auto parent = static_cast<std::uint32_t>(node_ - tree_->nodes.data());
        const auto at = static_cast<std::uint32_t>(at_);
        const TreeRef here(*tree_, c[at_], parent, at);
        if (node_->type == YAML::NodeType::Map) return Item(here, here, TreeRef(*tree_, c[at_ + 1], parent, at + 1));
        return Item(here, here, here);
    }
    Iterator& operator++() {
        at_ += node_->type == YAML::NodeType::Map ? 2 : 1;
        return *this;
    }
    bool operator!=(const Iterator& other) const { return at_ != other.at_; }

private:
    const Tree* tree_;
    const TreeNode* node_;
    std::size_t at_;
};

inline TreeRef::Iterator TreeRef::begin() const { return Iterator(*tree_, node(), 0); }
inline TreeRef::Iterator TreeRef::end() const { return Iterator(*tree_, node(), node().children.size()); }

}  // namespace umpire::yaml
