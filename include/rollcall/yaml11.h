// Values as Kubernetes reads them. Helm, kubectl and the API server turn YAML into
// JSON with sigs.k8s.io/yaml over go-yaml v2, which resolves a plain (unquoted,
// untagged) scalar by YAML 1.1's rules: `yes`, `on` and `y` are booleans, `0123` is
// the octal integer 83, `1e3` a float, `~` null; keys become JSON strings (`on:` is
// the key "true"), and merge keys (`<<: *base`) are expanded. The tree (yaml_tree.h)
// holds the text of every scalar, so every reader of a value asks here what it is to
// Kubernetes: the immutability comparison, a Secret's keys and values, `optional`,
// an env value (docs/yaml.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rollcall/index_iterator.h"
#include "rollcall/yaml_tree.h"

namespace rollcall {

// A scalar resolved as go-yaml v2 resolves it when decoding into interface{}.
struct ResolvedScalar {
  enum class Type { kNull, kBool, kInt, kFloat, kString };
  Type type = Type::kNull;
  bool boolean = false;
  // kInt: the value is -magnitude when negative, else magnitude (int64 and uint64
  // both fit, as go-yaml yields either).
  bool negative = false;
  std::uint64_t magnitude = 0;
  double number = 0;  // kFloat
  std::string text;   // kString: the string; otherwise the scalar as written
};

// Resolves a scalar or null node (an undefined node resolves to null). For a
// mapping or sequence the result is a kString of "" and means nothing.
ResolvedScalar ResolveScalar(const YamlNode& node);

// The scalar go-yaml v2 makes of `text` with `tag` as the tree reports it ("?" for a
// plain scalar without a tag, "!" for a quoted or block one, else the resolved tag,
// "tag:yaml.org,2002:int"), or nullopt where go-yaml refuses the document: a core
// tag the text does not fit (`!!int abc`, `!!null x`, `!!bool 1`) or a `!!binary`
// that is not base64. `!!binary` yields the decoded bytes as a string.
std::optional<ResolvedScalar> ResolveTaggedScalar(const std::string& tag, std::string_view text);

// The text Kubernetes' JSON decoder is handed for a scalar: a string as is, a number
// in decimal (floats in the shortest form that reads back the same), "true",
// "false" or "null". This is what a resource.Quantity field parses.
std::string JsonScalarText(const ResolvedScalar& scalar);

// The JSON key sigs.k8s.io/yaml makes of a resolved mapping key: `on` is "true",
// `0123` "83", a float as Go's strconv.FormatFloat(f, 'g', -1, 32) writes it (`08`
// is "8"); a null key (which the conversion refuses) is a string no key can be.
std::string JsonKeyText(const ResolvedScalar& key);

// The entries of a mapping as sigs.k8s.io/yaml hands them on: keys turned into JSON
// strings (`1` → "1", `yes` → "true"), merge keys (`<<: *base`) expanded as go-yaml
// v2 expands them, and the last of duplicate keys winning. Empty for anything that is
// not a mapping. The values share the document's nodes.
std::map<std::string, YamlNode> JsonObject(const YamlNode& node);

// The same with each entry's key node as well (a merged entry's is where the merged
// mapping wrote it), sorted by key, each key once. 24 bytes an entry, its nodes
// held as indexes into their tree and its key as a view of the key node's own text
// unless the JSON key differs: a ConfigMap of a hundred thousand short entries
// took 96 bytes an entry in a std::map, and 96 again as a vector of strings and
// handles being sorted (docs/performance.md). Valid while the tree lives.
class JsonMapping {
 public:
  struct Entry {
    std::string_view key;  // the JSON key
    YamlNode key_node;
    YamlNode value;
  };

  using const_iterator = IndexIterator<const JsonMapping, Entry>;

  JsonMapping() = default;
  // Moved, never copied: a copy's rows would view the keys the original holds.
  JsonMapping(JsonMapping&&) = default;
  JsonMapping& operator=(JsonMapping&&) = default;
  JsonMapping(const JsonMapping&) = delete;
  JsonMapping& operator=(const JsonMapping&) = delete;
  ~JsonMapping() = default;

  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, rows_.size()}; }
  std::size_t size() const { return rows_.size(); }
  bool empty() const { return rows_.empty(); }

 private:
  friend const_iterator;
  friend JsonMapping JsonEntries(const YamlNode& node);
  friend class JsonEntryCollector;

  struct Row {
    const char* key;  // the JSON key: the key node's text, or one of converted_keys_
    std::uint32_t key_size;
    std::uint32_t key_node;
    std::uint32_t value;
    std::uint32_t order;  // the entry's place as go-yaml meets them: later ones win

    std::string_view Key() const { return {key, key_size}; }
  };

  Entry At(std::size_t index) const;

  YamlNode mapping_;  // the mapping read: the tree the rows' indexes point into
  std::vector<Row> rows_;
  // JSON keys unlike their text (`on` is "true"); a deque, where they stay put.
  std::deque<std::string> converted_keys_;
};
JsonMapping JsonEntries(const YamlNode& node);

// Whether a plain scalar without a tag is null to YAML 1.1: `~`, `null`, `Null`,
// `NULL` or nothing (go-yaml v2's resolve table).
bool IsNullWord(std::string_view text);

// What a plain scalar without a tag resolves to (ResolveScalar's rule for one).
ResolvedScalar::Type ResolvePlainScalar(std::string_view text);

// The boolean Kubernetes reads in `node` (`optional: yes` is true), or nullopt when
// it reads no boolean there (absent, null, a string, a number).
std::optional<bool> BoolValue(const YamlNode& node);

// The key sigs.k8s.io/yaml makes of a mapping key: `on:` is "true", `0123:` "83",
// a string key its text (JsonObject's keys).
std::string KeyText(const YamlNode& key);

// "bool", "number", "null" or "string": how encoding/json names a value of `type`
// in the error the API server gives when it finds one where a string belongs.
const char* JsonTypeName(ResolvedScalar::Type type);

// What follows the subject in the message for a bool or number of `type` where
// the API server wants a string, in its words: " is a number to Kubernetes, …; quote
// it … The API server refuses the object: "Secret in version \"v1\" cannot be handled
// as a Secret: json: cannot unmarshal number into Go struct field <go_field> of type
// <go_type>"". `kind` and `api_version` are the object's.
std::string NotAStringMessage(ResolvedScalar::Type type, const std::string& kind,
                              const std::string& api_version, const std::string& go_field,
                              const char* go_type);

// The same for a string where a bool belongs (`optional: 'true'`, `optional: !!str
// yes`): " is a string to Kubernetes, …; write true or false unquoted. The API server
// refuses the object: …cannot unmarshal string into Go struct field <go_field> of type
// bool"".
std::string NotABoolMessage(ResolvedScalar::Type type, const std::string& kind,
                            const std::string& api_version, const std::string& go_field);

// True when the API server refuses `node` where a string belongs: a bool or number.
bool IsNonStringScalar(const YamlNode& node);

}  // namespace rollcall
