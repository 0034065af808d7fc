# The layer check: fails if a folder includes a folder above it, or if core/ includes Lua.
#
# The folders, lowest first. A file may include its own folder and any folder listed before it,
# never one listed after it:
#   core      the kernel: dice, hex, tabletop, bus, odds, drawing (never a Lua header)
#   bindings  the Lua face of the kernel (finds its game through bindings/Game.hpp)
#   host      the sandboxed Lua state and its limits (implements Game)
#   ruleset   rulesets as files: manifests, YAML data, schemas, loading into a host
#   app       what each umpire command runs (odds, specs, replay, watch, draw, check)
#   cli       the umpire command
# Tests and benchmarks sit outside the layers and may include any of them.
#
# Usage: cmake -DROOT=<source tree> [-DSTAMP=<file to touch on success>] -P check_layers.cmake
# Run by the build before anything compiles (the umpire_layers_checked target), so a wrong
# include fails the build with the file, the line and the rule it breaks.
set(layers core bindings host ruleset app cli)
if(NOT ROOT)
  message(FATAL_ERROR "check_layers.cmake: pass -DROOT=<source tree>")
endif()

set(problems "")
list(LENGTH layers count)
math(EXPR last "${count} - 1")
foreach(rank RANGE ${last})
  list(GET layers ${rank} layer)
  file(GLOB_RECURSE files "${ROOT}/${layer}/*.cpp" "${ROOT}/${layer}/*.hpp" "${ROOT}/${layer}/*.h")
  foreach(file ${files})
    file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include")
    file(RELATIVE_PATH shown "${ROOT}" "${file}")
    foreach(line ${lines})
      if(line MATCHES "#[ \t]*include[ \t]*\"([A-Za-z_]+)/")
        set(target "${CMAKE_MATCH_1}")
        list(FIND layers "${target}" target_rank)
        if(target_rank GREATER rank)
          string(STRIP "${line}" line)
          string(APPEND problems "  ${shown}: ${line}: ${layer}/ may not include ${target}/ (it is a higher layer)\n")
        endif()
      endif()
      if(layer STREQUAL "core" AND line MATCHES "[<\"](lua\\.hpp|lua\\.h|lauxlib\\.h|lualib\\.h|luajit\\.h)[>\"]")
        string(STRIP "${line}" line)
        string(APPEND problems "  ${shown}: ${line}: core/ never includes a Lua header\n")
      endif()
    endforeach()
  endforeach()
endforeach()

if(problems)
  string(REPLACE ";" " -> " order "${layers}")
  message(FATAL_ERROR "layer check failed (the order, lowest first: ${order}):\n${problems}")
endif()
if(STAMP)
  file(TOUCH "${STAMP}")
endif()
