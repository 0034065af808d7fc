#include "ruleset/SchemaValidator.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "core/Error.hpp"
#include "core/LinearRegex.hpp"
#include "ruleset/YamlLoader.hpp"

namespace umpire::schema {
namespace {

using json = nlohmann::json;

const std::set<std::string> kKeywords = {
    "type", "properties", "required", "additionalProperties", "propertyNames", "items", "enum",
    "const", "minimum", "maximum", "minItems", "maxItems", "minProperties", "pattern", "anyOf",
    "$ref", "$schema", "$id", "$comment", "title", "description", "default", "examples",
    "definitions"};

std::string mark_text(const std::string& file, const YAML::Mark& m) {
    if (m.is_null()) return file;
    return file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
}

std::string short_json(const json& j) {
    std::string s = j.dump();
    return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

// A schema is the ruleset's own file, so the walker's recursion is bounded here: nesting (each
// level a frame of check_schema and of the walker), and a pattern's length (std::regex compiles it
// by recursive descent: 100 000 nested parentheses overflowed the stack).
constexpr int kMaxSchemaDepth = 64;
constexpr std::size_t kMaxPatternBytes = 1000;

// The value each keyword must hold, checked before the walker reads it with get<>() (a `"type":
// 5` threw nlohmann's "type must be string, but is number", which named no file).
const char* keyword_value_error(const std::string& key, const json& value) {
    const auto strings = [](const json& v) {
        return v.is_array() && std::all_of(v.begin(), v.end(), [](const json& e) { return e.is_string(); });
    };
    if (key == "type") return value.is_string() || strings(value) ? nullptr : "must be a type name or a list of them";
    if (key == "properties" || key == "definitions") return value.is_object() ? nullptr : "must be an object of schemas";
    if (key == "required") return strings(value) ? nullptr : "must be a list of key names";
    if (key == "enum") return value.is_array() ? nullptr : "must be a list of values";
    if (key == "minimum" || key == "maximum") return value.is_number() ? nullptr : "must be a number";
    if (key == "minItems" || key == "maxItems" || key == "minProperties")
        return value.is_number_unsigned() ? nullptr : "must be a whole number from 0";
    if (key == "pattern" || key == "$ref") return value.is_string() ? nullptr : "must be a string";
    return nullptr;
}

// Checks the schema once, at load: unknown keywords, values of the wrong kind, dangling $refs and
// bad patterns are schema errors.
void check_schema(const json& s, const json& root, const std::string& display, const std::string& at, int depth = 0) {
    if (s.is_boolean()) return;
    if (!s.is_object()) throw Error(display + ": " + (at.empty() ? "the schema" : at) + " must be an object");
    if (depth > kMaxSchemaDepth)
        throw Error(display + ": " + at.substr(0, 200) + "...: the schema is nested deeper than " +
                    std::to_string(kMaxSchemaDepth) + " levels");
    for (const auto& [key, value] : s.items()) {
        if (!kKeywords.count(key))
            throw Error(display + ": " + join(at, key) + ": unsupported JSON Schema keyword '" + key +
                        "' (ruleset/SchemaValidator.hpp lists the supported subset)");
        if (const char* why = keyword_value_error(key, value)) throw Error(display + ": " + join(at, key) + ": " + why);
        if (key == "properties" || key == "definitions") {
            for (const auto& [name, sub] : value.items())
                check_schema(sub, root, display, join(join(at, key), name), depth + 1);
        } else if (key == "additionalProperties" || key == "items" || key == "propertyNames") {
            check_schema(value, root, display, join(at, key), depth + 1);
        } else if (key == "anyOf") {
            if (!value.is_array()) throw Error(display + ": " + join(at, key) + " must be a list of schemas");
            for (const auto& sub : value) check_schema(sub, root, display, join(at, key), depth + 1);
        } else if (key == "$ref") {
            const std::string ref = value.get<std::string>();
            const std::string prefix = "#/definitions/";
            if (ref.rfind(prefix, 0) != 0 || !root.contains("definitions") ||
                !root["definitions"].contains(ref.substr(prefix.size())))
                throw Error(display + ": " + join(at, key) + ": cannot resolve $ref '" + ref +
                            "' (only #/definitions/<name> is supported)");
        } else if (key == "pattern") {
            if (value.get_ref<const std::string&>().size() > kMaxPatternBytes)
                throw Error(display + ": " + join(at, key) + ": a pattern of more than " +
                            std::to_string(kMaxPatternBytes) + " bytes");
            try {
                std::regex r(value.get<std::string>(), kLinearRegex);
            } catch (const std::regex_error& e) {
                throw Error(display + ": " + join(at, key) + ": bad regular expression: " + e.what());
            }
        }
    }
}

const char* yaml_kind(const YAML::Node& n, const json& scalar) {
    if (n.IsMap()) return "object";
    if (n.IsSequence()) return "array";
    if (scalar.is_null()) return "null";
    if (scalar.is_boolean()) return "boolean";
    if (scalar.is_number_integer()) return "integer";
    if (scalar.is_number()) return "number";
    return "string";
}

bool type_matches(const std::string& want, const char* have) {
    const std::string h = have;
    return want == h || (want == "number" && h == "integer");
}

struct Walker {
    const json& root;
    const std::string& file;
    const Options& options;
    std::vector<Problem>& out;

    void add(const YAML::Node& n, const std::string& path, const std::string& message) {
        out.push_back({mark_text(file, n.Mark()), path, message});
    }

    // `refs` counts the $refs followed at this node: a definition that refers to itself, directly
    // or through others or anyOf, never reaches a child (`{"definitions": {"a": {"$ref":
    // "#/definitions/a"}}}` recursed until the stack ran out: SIGSEGV).
    void walk(const YAML::Node& n, const json& s, const std::string& path, int refs = 0) {
        if (s.is_boolean()) {
            if (!s.get<bool>()) add(n, path, "not allowed here");
            return;
        }
        if (s.contains("$ref")) {
            const std::string& ref = s["$ref"].get_ref<const std::string&>();
            if (refs >= kMaxSchemaDepth) {
                add(n, path, "the schema's $ref '" + ref + "' leads back to itself (more than " +
                                 std::to_string(kMaxSchemaDepth) + " $refs at one value)");
                return;
            }
            walk(n, root["definitions"][ref.substr(std::string("#/definitions/").size())], path, refs + 1);
        }
        const json value = n.IsScalar() ? SchemaValidator::scalar_value(n) : json();
        if (value.is_number_float() && !std::isfinite(value.get<double>())) {
            const std::string& text = n.Scalar();
            add(n, path, "number out of range: " + (text.size() > 40 ? text.substr(0, 37) + "..." : text) +
                             " (quote it to keep it as text)");
            return;
        }
        const char* kind = n.IsNull() ? "null" : yaml_kind(n, value);
        if (s.contains("type")) {
            const json& t = s["type"];
            bool ok = false;
            std::string wanted;
            for (const auto& one : t.is_array() ? t : json::array({t})) {
                ok = ok || type_matches(one.get<std::string>(), kind);
                wanted += (wanted.empty() ? "" : " or ") + one.get<std::string>();
            }
            if (!ok) {
                add(n, path, std::string("expected ") + wanted + ", got " + kind +
                                 (n.IsScalar() ? " '" + n.Scalar() + "'" : ""));
                return;  // the other keywords would only repeat the mismatch
            }
        }
        if (s.contains("anyOf")) {
            std::vector<std::string> reasons;
            bool any = false;
            for (const auto& alt : s["anyOf"]) {
                std::vector<Problem> sub;
                Walker w{root, file, options, sub};
                w.walk(n, alt, path, refs);
                if (sub.empty()) { any = true; break; }
                reasons.push_back(sub.front().message);
            }
            if (!any) {
                std::string text = "matches none of the allowed forms";
                for (const auto& r : reasons) text += "; " + r;
                add(n, path, text);
            }
        }
        if (s.contains("enum")) {
            bool found = false;
            for (const auto& e : s["enum"]) found = found || (n.IsScalar() && e == value);
            if (!found) add(n, path, "must be one of " + short_json(s["enum"]) + ", got " +
                                         (n.IsScalar() ? "'" + n.Scalar() + "'" : std::string(kind)));
        }
        if (s.contains("const") && !(n.IsScalar() && s["const"] == value))
            add(n, path, "must be " + s["const"].dump());
        if (n.IsScalar()) scalar_checks(n, s, value, path);
        if (n.IsSequence()) array_checks(n, s, path);
        if (n.IsMap()) object_checks(n, s, path);
    }

    void scalar_checks(const YAML::Node& n, const json& s, const json& value, const std::string& path) {
        if (value.is_number()) {
            const double x = value.get<double>();
            if (s.contains("minimum") && x < s["minimum"].get<double>())
                add(n, path, n.Scalar() + " is below the minimum " + s["minimum"].dump());
            if (s.contains("maximum") && x > s["maximum"].get<double>())
                add(n, path, n.Scalar() + " is above the maximum " + s["maximum"].dump());
        }
        if (value.is_string() && s.contains("pattern")) {
            const std::regex r(s["pattern"].get<std::string>(), kLinearRegex);
            if (!std::regex_search(value.get<std::string>(), r))
                add(n, path, "'" + n.Scalar() + "' does not match " + s["pattern"].get<std::string>());
        }
    }

    void array_checks(const YAML::Node& n, const json& s, const std::string& path) {
        const std::size_t size = n.size();
        if (s.contains("minItems") && size < s["minItems"].get<std::size_t>())
            add(n, path, "expected at least " + s["minItems"].dump() + " items, got " + std::to_string(size));
        if (s.contains("maxItems") && size > s["maxItems"].get<std::size_t>())
            add(n, path, "expected at most " + s["maxItems"].dump() + " items, got " + std::to_string(size));
        if (s.contains("items")) {
            std::size_t i = 0;
            for (const auto& item : n) walk(item, s["items"], path + "[" + std::to_string(i++) + "]");
        }
    }

    // Keys are strings to a schema (as in JSON), so only the string keywords apply to them.
    void key_checks(const YAML::Node& key_node, const std::string& key, const json& s, const std::string& path) {
        if (s.contains("pattern") && !std::regex_search(key, std::regex(s["pattern"].get<std::string>(), kLinearRegex)))
            add(key_node, path, "bad key '" + key + "': does not match " + s["pattern"].get<std::string>());
        if (s.contains("enum")) {
            bool found = false;
            for (const auto& e : s["enum"]) found = found || (e.is_string() && e.get<std::string>() == key);
            if (!found) add(key_node, path, "bad key '" + key + "': must be one of " + short_json(s["enum"]));
        }
    }

    void object_checks(const YAML::Node& n, const json& s, const std::string& path) {
        std::set<std::string> present;
        for (const auto& kv : n) {
            const std::string key = kv.first.Scalar();
            present.insert(key);
            const std::string sub = join(path, key);
            if (s.contains("propertyNames")) key_checks(kv.first, key, s["propertyNames"], sub);
            if (s.contains("properties") && s["properties"].contains(key)) {
                walk(kv.second, s["properties"][key], sub);
            } else if (s.contains("additionalProperties")) {
                const json& ap = s["additionalProperties"];
                if (ap.is_boolean() && !ap.get<bool>()) {
                    std::string known;
                    if (s.contains("properties"))
                        for (const auto& [name, _] : s["properties"].items()) known += (known.empty() ? "" : ", ") + name;
                    add(kv.first, sub, "unknown key '" + key + "'" + (known.empty() ? "" : " (allowed: " + known + ")"));
                } else {
                    walk(kv.second, ap, sub);
                }
            }
        }
        if (options.partial) return;
        if (s.contains("required"))
            for (const auto& r : s["required"])
                if (!present.count(r.get<std::string>()))
                    add(n, path, "missing required key '" + r.get<std::string>() + "'");
        if (s.contains("minProperties") && present.size() < s["minProperties"].get<std::size_t>())
            add(n, path, "expected at least " + s["minProperties"].dump() + " keys");
    }
};

}  // namespace

std::string Problem::str() const {
    return where + ": " + (path.empty() ? "" : path + ": ") + message;
}

SchemaValidator::SchemaValidator(json schema, std::string schema_display)
    : schema_(std::move(schema)), display_(std::move(schema_display)) {
    check_schema(schema_, schema_, display_, "");
}

SchemaValidator SchemaValidator::from_file(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) throw Error(file.string() + ": cannot read the schema");
    try {
        return SchemaValidator(json::parse(in), file.string());
    } catch (const json::parse_error& e) {
        throw Error(file.string() + ": not valid JSON: " + e.what());
    }
}

json SchemaValidator::scalar_value(const YAML::Node& node) {
    if (node.IsNull()) return nullptr;
    const std::string& text = node.Scalar();
    const std::string& tag = node.Tag();
    if (tag == "!" || tag == "tag:yaml.org,2002:str") return text;
    if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return nullptr;
    if (text == "true" || text == "True" || text == "TRUE") return true;
    if (text == "false" || text == "False" || text == "FALSE") return false;
    // By hand, as the data loader reads them (yaml::is_decimal): std::regex recursed once per
    // character, so a scalar of 300 000 digits in a manifest crashed `check` (SIGSEGV), and
    // std::stod threw "stod", naming no file, for 1e999. A number past a double is infinite here,
    // and Walker::walk names it as the data loader does.
    if (!yaml::is_decimal(text)) return text;
    const char* first = text.data() + (text[0] == '+' ? 1 : 0);  // from_chars takes no '+'
    const char* last = text.data() + text.size();
    const bool integer = std::all_of(first + (*first == '-' ? 1 : 0), last, [](char c) { return c >= '0' && c <= '9'; });
    if (integer) {
        long long whole = 0;
        if (std::from_chars(first, last, whole).ec == std::errc()) return whole;
    }
    return std::strtod(text.c_str(), nullptr);  // ±HUGE_VAL past a double; 0 for one too small to tell from it
}

std::vector<Problem> SchemaValidator::validate(const YAML::Node& document, const std::string& file_display,
                                               const Options& options) const {
    std::vector<Problem> out;
    Walker w{schema_, file_display, options, out};
    w.walk(document, schema_, "");
    return out;
}

std::string modeline_schema(const std::string& text) {
    static const std::regex kModeline(R"(^#\s*yaml-language-server:\s*\$schema=(\S+))", kLinearRegex);
    std::istringstream in(text);
    std::string line;
    for (int i = 0; i < 5 && std::getline(in, line); ++i) {
        std::smatch m;
        if (std::regex_search(line, m, kModeline)) return m[1];
    }
    return "";
}

nlohmann::json overlay_schema(const nlohmann::json& schema) {
    if (schema.is_array()) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& v : schema) out.push_back(overlay_schema(v));
        return out;
    }
    if (!schema.is_object()) return schema;
    nlohmann::json out = nlohmann::json::object();
    for (auto it = schema.begin(); it != schema.end(); ++it) {
        // By the value's type too, so a data field that happens to be called "required" stays.
        if ((it.key() == "required" && it.value().is_array()) ||
            (it.key() == "minProperties" && it.value().is_number_integer()))
            continue;
        out[it.key()] = overlay_schema(it.value());
    }
    return out;
}

}  // namespace umpire::schema
