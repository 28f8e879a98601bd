// Equality of YAML values as Kubernetes reads them, not as they are written.
//
// Helm, kubectl and Argo CD turn YAML into JSON with sigs.k8s.io/yaml, which
// resolves plain scalars by go-yaml v2's YAML 1.1 rules: `yes`, `On` and `y` are
// bools, `010` is octal 8, `0x1F` is 31, `1e3` is the number 1000, `~` is null,
// while a quoted scalar is always a string. Two documents that differ only in such
// spelling, in key order or in `1Gi` against `1024Mi`, send the API server the same
// object; rollcall's immutability preflight must not call that a change.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "rollcall/yaml11.h"
#include "rollcall/yaml_tree.h"

namespace rollcall {

struct EqualOptions {
  // apimachinery's Semantic.DeepEqual, which compares decoded Go structs: an empty
  // list or map equals an absent (nil) one.
  bool empty_is_absent = false;
  // Values of the resource maps `requests`, `limits`, `overhead`, `hard`, `capacity`
  // and `allocatable`, and of `sizeLimit`, compare as resource quantities when both
  // sides parse as one (resource.Quantity fields compare by value: 1Gi == 1024Mi).
  bool quantities = false;
};

// Options for comparing what the API server compares in its update validation.
inline EqualOptions ApiSemantics() { return {true, true}; }

// True when `a` and `b` decode to the same JSON value: mappings regardless of key
// order, sequences element by element, scalars by resolved type and value (the
// numbers 1 and 1.0 are equal, the string "1" and the number 1 are not). An absent
// (undefined) node equals null, and a key mapped to null equals a missing key.
bool SemanticEqual(const YamlNode& a, const YamlNode& b, const EqualOptions& options = {});

// As SemanticEqual, for two values of the mapping key `key`, which (with
// options.quantities) says whether they are a quantity (`sizeLimit`) or a map of
// them (`limits`).
bool SemanticEqualAt(const std::string& key, const YamlNode& a, const YamlNode& b,
                     const EqualOptions& options = {});

// Kubernetes resource quantities (k8s.io/apimachinery resource.Quantity):
// <sign><digits>[.<digits>]<suffix> with suffix one of Ki Mi Gi Ti Pi Ei (binary),
// n u m k M G T P E (decimal), e<exp>/E<exp> or none. Compared exactly, after the
// API server's own rounding up to a whole nano. A text that is not a quantity is
// compared byte for byte instead.
bool IsQuantity(std::string_view text);
bool QuantityEqual(std::string_view a, std::string_view b);
// <0, 0 or >0 as `a` is smaller than, equal to or larger than `b`.
int CompareQuantity(std::string_view a, std::string_view b);

}  // namespace rollcall
