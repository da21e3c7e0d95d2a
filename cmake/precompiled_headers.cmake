# Precompiled headers for the third-party headers most translation units parse (docs/performance.md,
# "Build time": nlohmann/json, Boost.Graph, Eigen, CLI11 and doctest are most of each unit's
# front-end time). Off with -DGPUPLAN_PCH=OFF, e.g. to check that every file includes what it uses.

# Headers every library above topologies/ reaches through its own includes.
set(GPUPLAN_PCH_COMMON
  <algorithm> <cstdint> <functional> <map> <memory> <optional> <string> <string_view> <vector>
  <nlohmann/json.hpp> <boost/graph/adjacency_list.hpp>)

# gpuplan_precompile(TARGET HEADER...): precompiles HEADERs for TARGET's sources when GPUPLAN_PCH
# is on and TARGET compiles anything. gpuplan_precompile(TARGET REUSE_FROM OWNER) uses OWNER's
# header instead, for a target compiled with the same flags and definitions (a header costs 14-24
# CPU s; one per flag set rather than one per library).
function(gpuplan_precompile target)
  get_target_property(type ${target} TYPE)
  if(NOT GPUPLAN_PCH OR type STREQUAL "INTERFACE_LIBRARY")
    return()
  endif()
  if(ARGV1 STREQUAL "REUSE_FROM")
    target_precompile_headers(${target} REUSE_FROM ${ARGV2})
  else()
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
  # A header the compiler cannot use is a warning, never a silent slow build.
  target_compile_options(${target} PRIVATE -Winvalid-pch)
  # clang stamps the headers' modification times into its PCH, so ccache never reused a unit
  # compiled with one (ccache manual, "Precompiled headers"): the sanitizer build (clang) took as
  # long with a warm cache as with none.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    target_compile_options(${target} PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
  endif()
endfunction()

# ccache caches a unit compiled with a precompiled header only when told that the header's macros
# and timestamps are safe to ignore (ccache manual, "Precompiled headers").
if(GPUPLAN_PCH AND CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
  set(CMAKE_CXX_COMPILER_LAUNCHER
      env CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
      ${CMAKE_CXX_COMPILER_LAUNCHER})
endif()
