#!/usr/bin/env python3
"""Turns a guide into the shell script of its steps, in the order the guide gives them.

A fenced block whose info string names a file (```lua file=grimdark/rules/attack.lua) is written
to that file; a ```sh block is run as it is (```sh no-test: shown only, e.g. `umpire watch`, which
runs until stopped). Other blocks (output shown, fragments) are prose.
Usage: doc_steps.py GUIDE.md [SECTION] > steps.sh   (then run steps.sh with `umpire` on the PATH)
SECTION: only the blocks under the "## SECTION" heading (up to the next "## ").
"""
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
if len(sys.argv) > 2:
    m = re.search(r"^## " + re.escape(sys.argv[2]) + r"\s*$(.*?)(?=^## |\Z)", text, re.S | re.M)
    if not m:
        sys.exit(f"{sys.argv[1]}: no section '## {sys.argv[2]}'")
    # Keep the line numbers of the whole file in the messages.
    text = "\n" * text.count("\n", 0, m.start(1)) + m.group(1)
out = ["set -euo pipefail"]
n = 0
for m in re.finditer(r"^```([^\n]*)\n(.*?)^```\s*$", text, re.S | re.M):
    info, body = m.group(1).strip(), m.group(2)
    line = text.count("\n", 0, m.start()) + 1
    f = re.search(r"\bfile=(\S+)", info)
    if f:
        path = f.group(1)
        if "UMPIRE_DOC_EOF" in body:
            sys.exit(f"{sys.argv[1]}:{line}: a block holds the end marker")
        out.append(f"echo '== {sys.argv[1]}:{line}: write {path}'")
        out.append(f"mkdir -p \"$(dirname '{path}')\"")
        out.append(f"cat > '{path}' <<'UMPIRE_DOC_EOF'\n{body}UMPIRE_DOC_EOF")
        n += 1
    elif info == "sh":
        out.append(f"echo '== {sys.argv[1]}:{line}: run'")
        out.append(body)
        n += 1
if n == 0:
    sys.exit(f"{sys.argv[1]}: no steps found")
print("\n".join(out))
