// A small JSON Schema validator for YAML data, so every problem keeps the YAML file's line:col.
//
// Debian ships no C++ JSON Schema validator, and our schemas (schemas/) use a small subset, so
// this one implements exactly that subset and refuses any other keyword when the schema is loaded
// (a keyword silently ignored would be a check silently skipped):
//   type (a name or a list of names: object, array, string, integer, number, boolean, null),
//   properties, required, additionalProperties (true/false or a schema), propertyNames,
//   items (one schema for every item), enum, const, minimum, maximum, minItems, maxItems,
//   minProperties, pattern (std::regex ECMAScript, searched like JSON Schema), anyOf,
//   $ref to "#/definitions/<name>", and the annotations $schema, $id, $comment, title,
//   description, default, examples, definitions.
//
// YAML scalars are typed like the data loader (ruleset/YamlLoader.hpp, YAML 1.2 core schema):
// a quoted scalar is always a string; plain true/false are booleans, plain integers integers,
// plain floats numbers, empty/~/null null; everything else a string. Map keys are strings to the
// schema (as in JSON): `12:` is the property "12".
#pragma once
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace umpire::schema {

struct Problem {
    std::string where;    // "file:line:col"
    std::string path;     // where in the document: "counters.ger_mmg.B" ("" = the root)
    std::string message;  // what is wrong
    std::string str() const;  // "file:line:col: path: message"
};

struct Options {
    // A child ruleset's data file is a partial overlay deep-merged over its parent's (see
    // docs/rulesets.md), so `required` and minProperties are not checked on it; everything
    // it does say must still fit the schema.
    bool partial = false;
};

class SchemaValidator {
public:
    // Throws umpire::Error naming the schema file if the schema uses an unsupported keyword or a
    // $ref that does not resolve.
    SchemaValidator(nlohmann::json schema, std::string schema_display);
    static SchemaValidator from_file(const std::filesystem::path& file);

    std::vector<Problem> validate(const YAML::Node& document, const std::string& file_display,
                                  const Options& options = {}) const;

    // The JSON value of a YAML scalar (typed as described above).
    static nlohmann::json scalar_value(const YAML::Node& scalar);

private:
    nlohmann::json schema_;
    std::string display_;
};

// "# yaml-language-server: $schema=<path>" on one of the first lines of a YAML text: the path
// (as written, relative to the YAML file), or "" if there is none.
std::string modeline_schema(const std::string& yaml_text);

// The overlay of a data-file schema: the same schema without `required` and `minProperties` at
// any depth, what Options::partial checks, written down for editors (a house rule's data file
// names it in its modeline). scripts/gen_overlay_schemas.py makes the shipped ones the same way.
nlohmann::json overlay_schema(const nlohmann::json& schema);

}  // namespace umpire::schema
