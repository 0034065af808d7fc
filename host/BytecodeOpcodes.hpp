// Lua source, shared by the chunks that read rule code's bytecode through jit.util.funcbc (the
// tail-call locator, host/TailCallWhere.cpp; an odds script's returning line,
// app/ScriptOutcome.cpp): `op_at(fn, pc)`, the opcode of fn's instruction pc, and `last_op(fn)`,
// that of its last instruction. Each chunk learns LuaJIT's opcode numbers by reading them off
// small functions it compiles (a `return f()` ends in the tail call CALLT) rather than writing
// them down, so another LuaJIT numbering does not break it. The chunk that starts with this text
// must have a local `funcbc` (jit.util's) in scope before it.
#pragma once
#include <string>

namespace umpire::bytecode {

inline constexpr const char* kOpcodeReaders = R"lua(
local function op_at(fn, pc) return funcbc(fn, pc) % 256 end
local function last_op(fn)
  local pc = 1
  while funcbc(fn, pc + 1) do pc = pc + 1 end
  return op_at(fn, pc)
end
)lua";

// A chunk's text: its header (which makes `funcbc` a local), the opcode readers, then its body.
inline std::string with_opcode_readers(const char* header, const char* body) {
    return std::string(header) + kOpcodeReaders + body;
}

}  // namespace umpire::bytecode
