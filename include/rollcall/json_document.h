// One value of a JSON stream (json_stream.h), read with the same parser and into the
// same tree as a YAML document, so that every later stage reads it alike.
//
// libyaml reads JSON's structure as YAML flow collections, with every offset where
// it is; what it would read differently from encoding/json is inside strings (the
// escapes "\/" and surrogate pairs, raw DEL and C1 controls, U+0085 and U+2028 that
// YAML folds as line breaks). So libyaml gets a copy whose strings are filled with
// plain letters, byte for byte, and each string's value is decoded from the text as
// written, by nlohmann's parser (JsonStringAt).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "rollcall/limits.h"

namespace rollcall {

// `text` (a JSON value with the white space before it) as libyaml is given it: the
// bytes inside every string replaced by 'x', JSON's white space but line feeds by
// spaces (a tab before the value would stop libyaml), a line feed at the end.
std::string JsonForYamlParser(std::string_view text);

// The value of the JSON string whose opening quote is at `pos` in `text`, decoded as
// JSON decodes it. The text must have parsed as JSON (CutJsonStream).
std::string JsonStringAt(std::string_view text, std::size_t pos);

// Whether `number`, a JSON number, is beyond float64's range (1e400), which
// Kubernetes' JSON decoder refuses.
bool IsJsonNumberOverflow(std::string_view number);

// What the text of a JSON value shows wrong before it is parsed: larger than
// `limits.max_document_bytes`, bytes that are not UTF-8 (Go's decoder would read each
// as U+FFFD, which rollcall refuses rather than hash a value that is not what was
// written), nesting deeper than `limits.max_depth`.
std::optional<TextProblem> FindJsonTextProblem(std::string_view text, const Limits& limits);

}  // namespace rollcall
