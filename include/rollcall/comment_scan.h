// Where YAML comments start in a text: a '#' at a line's start or after a blank,
// outside quoted and block scalars. A SECRET-VERSION marker is a comment (markers.h);
// the same text inside a Secret's value is the value, never a marker, and is never
// quoted in findings, reports or baselines.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace rollcall {

// The offsets of the '#' that start comments in `text` (a stream or a chart's
// template), in order. Quoted scalars are followed across lines; a block scalar is
// the lines indented deeper than the line of its header ("|", ">-"), blank lines
// included. A quote opens a scalar only where a node can start (after a blank, an
// indicator or at a line's start): the apostrophe in `don't` opens none.
std::vector<std::size_t> FindCommentStarts(std::string_view text);

}  // namespace rollcall
