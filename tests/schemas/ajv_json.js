// Validates JSON documents against one JSON Schema with ajv 8 (a real JSON Schema validator),
// not Umpire's own: what `umpire odds --json` writes against docs/odds-report.schema.json.
// Usage: node ajv_json.js NODE_MODULES SCHEMA.json FILE.json...
// Prints one line per file ("ok FILE" or "FAIL FILE: ..."); exits 1 if any file fails.
"use strict";
const fs = require("fs");
const path = require("path");
const Ajv = require(path.join(path.resolve(process.argv[2]), "ajv"));
const ajv = new Ajv({ allErrors: true, logger: false });
const validate = ajv.compile(JSON.parse(fs.readFileSync(process.argv[3], "utf8")));
let failed = 0;
for (const file of process.argv.slice(4)) {
  if (validate(JSON.parse(fs.readFileSync(file, "utf8")))) { console.log(`ok ${file}`); continue; }
  failed++;
  console.log(`FAIL ${file}: ` + validate.errors.map(e => `${e.instancePath || "/"} ${e.message}`).join("; "));
}
process.exit(failed ? 1 : 0);
