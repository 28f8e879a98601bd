// A stream kubectl reads as JSON, cut into its values.
//
// kubectl, Helm and Argo CD read a manifest stream with apimachinery's
// YAMLOrJSONDecoder: a stream whose first bytes, past Go's Unicode white space, are
// '{' is read as JSON values one after another (encoding/json's Decoder), not as
// YAML. YAML would read `{"a":1}{"b":2}` as one object and refuse `{"a":1}\n{"b":2}`
// after the first, and folds a raw U+0085 in a string like a line break where JSON
// keeps it (docs/yaml.md, "JSON streams"). The JSON values' syntax is checked by
// nlohmann's parser, never by hand.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace rollcall {

// How many bytes apimachinery looks at to tell a JSON stream (kubectl's StreamVisitor
// peeks 4096): a stream whose first '{' lies past white space that long is YAML.
inline constexpr std::size_t kJsonSniffBytes = 4096;

// True when kubectl reads `bytes` as a JSON stream: within its first kJsonSniffBytes,
// what follows Go's Unicode white space (unicode.IsSpace) starts with '{'.
bool IsJsonStream(std::string_view bytes);

// A JSON stream as YAMLOrJSONDecoder reads it: the JSON values it decodes, then,
// where the JSON decoder fails after at most one value, the rest read as YAML from
// `yaml_from` (the decoder rewinds to the end of the last value and skips white
// space up to the first line break). A failure after two or more values is an
// error at `error_at`: kubectl refuses the stream there.
struct JsonStreamCut {
  struct Value {
    std::size_t begin;  // its first byte ('{', '[', '"', ...)
    std::size_t end;    // one past its last byte
  };
  static constexpr std::size_t kNone = std::string_view::npos;

  std::vector<Value> values;
  std::size_t yaml_from = kNone;
  std::size_t error_at = kNone;
};

// Cuts `bytes` (a stream IsJsonStream says is JSON) into its values, stopping after
// `max_values` of them (the rest, if any, is then not looked at and yaml_from and
// error_at stay kNone).
JsonStreamCut CutJsonStream(std::string_view bytes, std::size_t max_values);

// Where the JSON value starting at `pos` ends (one past it), or kNone when what
// starts there is not a JSON value; with `error_at`, where the parser stopped.
std::size_t JsonValueEnd(std::string_view bytes, std::size_t pos, std::size_t* error_at = nullptr);

// Where the JSON decoder stops in the piece of `bytes` that starts at `from` (a
// span with SplitProblem::kJsonSyntax): at the next value, or inside it.
std::size_t JsonErrorAt(std::string_view bytes, std::size_t from);

}  // namespace rollcall
