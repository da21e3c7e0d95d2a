# Unity batches that an edit to the engine does not reach (docs/performance.md, "An edit to one
# file under sim/core/"): a unity batch is recompiled when any of its files sees the edited
# header, so the sources of a target are ordered with those that reach the engine's headers
# (sim/core/portable.h, through quoted includes) first and the rest after. Files that never see
# the engine then share at most one batch with files that do. The order decides nothing else: a
# stale scan only costs build time.

# Sets `out` to TRUE when `file` reaches sim/core/portable.h through quoted, root-relative
# includes; each file is read once per configure.
function(gpuplan_reaches_engine out file)
  get_property(seen GLOBAL PROPERTY "GPUPLAN_ENGINE_${file}" SET)
  if(seen)
    get_property(r GLOBAL PROPERTY "GPUPLAN_ENGINE_${file}")
    set(${out} ${r} PARENT_SCOPE)
    return()
  endif()
  set_property(GLOBAL PROPERTY "GPUPLAN_ENGINE_${file}" FALSE)  # an include cycle ends here
  set(r FALSE)
  if(file MATCHES "/sim/core/portable\\.h$")
    set(r TRUE)
  else()
    file(STRINGS "${file}" lines REGEX "^#include \"")
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" inc "${line}")
      if(EXISTS "${CMAKE_SOURCE_DIR}/${inc}")
        gpuplan_reaches_engine(sub "${CMAKE_SOURCE_DIR}/${inc}")
        if(sub)
          set(r TRUE)
          break()
        endif()
      endif()
    endforeach()
  endif()
  set_property(GLOBAL PROPERTY "GPUPLAN_ENGINE_${file}" ${r})
  set(${out} ${r} PARENT_SCOPE)
endfunction()

# Sets `out` to `sources` with those that reach the engine first, each part in its given order.
function(gpuplan_engine_first out)
  set(engine "")
  set(rest "")
  foreach(src IN LISTS ARGN)
    gpuplan_reaches_engine(r "${src}")
    if(r)
      list(APPEND engine "${src}")
    else()
      list(APPEND rest "${src}")
    endif()
  endforeach()
  set(${out} ${engine} ${rest} PARENT_SCOPE)
endfunction()
