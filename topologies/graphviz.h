#pragma once
//! Pictures of a topology: Graphviz DOT text, and SVG rendered by the `dot` program.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "topologies/topology.h"

namespace gpuplan::topologies {

//! DOT text of `t`: one node per vertex (labelled with its name; hosts as ellipses, switches as
//! boxes, one rank per level, highest level on top) and one edge per link labelled in Gb/s.
//! With `edge_load` (one value per edge in boost::edges order: demand / capacity, NaN = not
//! measured) every link is also shaded by its load (load_color) and labelled with it in percent.
[[nodiscard]] std::string to_dot(const Topology& t, std::span<const double> edge_load = {});

//! Colour of a link at `load` (demand / capacity): grey when idle, then green through amber
//! (50 %) to red at 100 % and above; "#hhhhhh".
[[nodiscard]] std::string load_color(double load);

//! Most vertices + edges a topology may have for render_svg to be tried (dot's layout time grows
//! far faster than linearly: a 1,024-node, 64-spine leaf-spine took over 300 s).
inline constexpr std::size_t DOT_MAX_ELEMENTS = 2000;
//! How long `dot` may run before it is stopped [s].
inline constexpr double DOT_TIMEOUT_S = 30;

//! True when `t` is small enough to hand to `dot` (DOT_MAX_ELEMENTS); else false with `error` set
//! to a sentence for the report.
[[nodiscard]] bool drawable(const Topology& t, std::string& error);

//! Renders DOT text to SVG by running `dot -Tsvg` for at most `timeout_s`; returns false and sets
//! `error` to a sentence naming the fix when `dot` is missing, fails or runs too long (then it is
//! killed). The temporary DOT file (in $TMPDIR, else /tmp) is removed on every way out.
[[nodiscard]] bool render_svg(std::string_view dot, std::string& svg, std::string& error,
                              double timeout_s = DOT_TIMEOUT_S);

}  // namespace gpuplan::topologies
