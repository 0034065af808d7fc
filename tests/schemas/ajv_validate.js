// Validates YAML files against the JSON Schema each names in its first-line modeline
// ("# yaml-language-server: $schema=<path relative to the file>"), with ajv 8 -- a real JSON
// Schema validator, the same kind an editor's YAML language server runs -- not Umpire's own.
// Usage: node ajv_validate.js NODE_MODULES FILE.yaml...
// Prints one line per file ("ok FILE" or "FAIL FILE: ..."); exits 1 if any file fails.
"use strict";
const fs = require("fs");
const path = require("path");
const modules = path.resolve(process.argv[2]);
const Ajv = require(path.join(modules, "ajv"));
const yaml = require(path.join(modules, "js-yaml"));

// ajv's defaults (as an editor would run it): an unknown keyword or a malformed schema is an
// error (strictSchema), style warnings (strictTypes) are logged only.
const ajv = new Ajv({ allErrors: true, logger: false });
const compiled = new Map();
let failed = 0;
for (const file of process.argv.slice(3)) {
  const text = fs.readFileSync(file, "utf8");
  const m = /^#\s*yaml-language-server:\s*\$schema=(\S+)/m.exec(text.split("\n").slice(0, 5).join("\n"));
  if (!m) { console.log(`FAIL ${file}: no yaml-language-server modeline`); failed++; continue; }
  const schemaFile = path.resolve(path.dirname(file), m[1]);
  try {
    if (!compiled.has(schemaFile)) {
      // Compiled once per schema file (a second compile of the same $id is refused), and a
      // schema that does not compile fails every file that names it.
      try {
        compiled.set(schemaFile, ajv.compile(JSON.parse(fs.readFileSync(schemaFile, "utf8"))));
      } catch (e) {
        compiled.set(schemaFile, e);
      }
    }
    if (compiled.get(schemaFile) instanceof Error) throw compiled.get(schemaFile);
    // YAML 1.2 core schema: "yes" and "1/2" stay strings, as Umpire reads them.
    const data = yaml.load(text, { schema: yaml.CORE_SCHEMA });
    const validate = compiled.get(schemaFile);
    if (validate(data)) { console.log(`ok ${file}`); continue; }
    failed++;
    const why = validate.errors.map(e => `${e.instancePath || "/"} ${e.message}`).join("; ");
    console.log(`FAIL ${file} (${m[1]}): ${why}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${file} (${m[1]}): ${e.message}`);
  }
}
process.exit(failed ? 1 : 0);
