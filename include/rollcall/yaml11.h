// Scalars as Kubernetes reads them. Helm, kubectl and the API server read YAML with
// sigs.k8s.io/yaml over go-yaml v2, which resolves a plain (unquoted, untagged)
// scalar by YAML 1.1's rules: `yes`, `on` and `y` are booleans, `0123` is the octal
// integer 83, `1e3` a float, `~` null. yaml-cpp hands rollcall the text of every
// scalar, so each place that reads a value asks here what it is to Kubernetes:
// whether `optional: yes` is true, which key a mapping key `on:` makes, and whether
// a value the API server wants as a string is one (docs/yaml.md).
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>

namespace rollcall {

enum class Yaml11Type { kString, kNull, kBool, kInt, kFloat };

// go-yaml v2's resolve() for a plain scalar without a tag: the bool, null and
// float words of YAML 1.1, integers as Go's strconv.ParseInt/ParseUint read them
// with base 0 after dropping '_' (0x1F, 0o17, 0b101, 0123 octal), floats matching
// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ that do not overflow, and
// everything else a string. Timestamps (2001-12-14) stay strings: go-yaml v2 keeps
// them as their text when decoding into an interface, as Kubernetes does.
Yaml11Type ResolvePlainScalar(std::string_view text);

// What a scalar node is to Kubernetes: a plain scalar resolved as above, a quoted
// one a string; a tag (!!str, !!int, …) says it outright. A node that is not a
// scalar is kNull when null, else kString (callers check maps and sequences).
Yaml11Type ScalarType(const YAML::Node& node);

// The boolean Kubernetes reads in `node` (`optional: yes` is true), or nullopt when
// it reads no boolean there (absent, null, a string, a number).
std::optional<bool> BoolValue(const YAML::Node& node);

// The key Kubernetes makes of a mapping key: sigs.k8s.io/yaml turns a boolean key
// into "true"/"false" and an integer into its decimal digits (`on:` is the key
// "true", `0123:` the key "83"); a string key is its text.
std::string KeyText(const YAML::Node& key);

// "bool", "number" or "null": how encoding/json names a value of `type` in the
// error the API server gives when it finds one where a string belongs.
const char* JsonTypeName(Yaml11Type type);

}  // namespace rollcall
