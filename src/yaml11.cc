#include "rollcall/yaml11.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>

#include "rollcall/base64.h"

namespace rollcall {
namespace {

using Type = ResolvedScalar::Type;

constexpr std::string_view kCoreTag = "tag:yaml.org,2002:";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

char Lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// go-yaml v2's resolve_table: the first byte says what a plain scalar may be.
char Hint(std::string_view s) {
  if (s.empty()) return 'N';
  char c = s.front();
  if (c == '+' || c == '-') return 'S';
  if (IsDigit(c)) return 'D';
  if (std::string_view("yYnNtTfFoO~").find(c) != std::string_view::npos) return 'M';
  if (c == '.') return '.';
  return 0;
}

bool OneOf(std::string_view s, std::initializer_list<std::string_view> words) {
  return std::find(words.begin(), words.end(), s) != words.end();
}

// go-yaml v2's resolve_map: the words YAML 1.1 gives a meaning.
std::optional<ResolvedScalar> FromWordTable(std::string_view s) {
  ResolvedScalar out;
  out.text = std::string(s);
  if (OneOf(s, {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})) {
    out.type = Type::kBool;
    out.boolean = true;
  } else if (OneOf(s,
                   {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"})) {
    out.type = Type::kBool;
  } else if (IsNullWord(s)) {
    out.type = Type::kNull;
  } else if (OneOf(s, {".nan", ".NaN", ".NAN"})) {
    out.type = Type::kFloat;
    out.number = std::numeric_limits<double>::quiet_NaN();
  } else if (OneOf(s, {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"})) {
    out.type = Type::kFloat;
    out.number = std::numeric_limits<double>::infinity();
  } else if (OneOf(s, {"-.inf", "-.Inf", "-.INF"})) {
    out.type = Type::kFloat;
    out.number = -std::numeric_limits<double>::infinity();
  } else {
    return std::nullopt;
  }
  return out;
}

// strconv.ParseUint(s, 0, 64): 0b, 0o, 0x prefixes, a leading 0 for octal.
std::optional<std::uint64_t> ParseGoUnsigned(std::string_view s) {
  if (s.empty()) return std::nullopt;
  unsigned base = 10;
  if (s[0] == '0') {
    char prefix = s.size() >= 3 ? Lower(s[1]) : '\0';
    if (prefix == 'b' || prefix == 'o' || prefix == 'x') {
      base = prefix == 'b' ? 2 : prefix == 'o' ? 8 : 16;
      s.remove_prefix(2);
    } else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  std::uint64_t n = 0;
  for (char c : s) {
    unsigned digit = 0;
    if (IsDigit(c)) {
      digit = static_cast<unsigned>(c - '0');
    } else if (Lower(c) >= 'a' && Lower(c) <= 'z') {
      digit = static_cast<unsigned>(Lower(c) - 'a') + 10;
    } else {
      return std::nullopt;
    }
    if (digit >= base) return std::nullopt;
    if (n > (std::numeric_limits<std::uint64_t>::max() - digit) / base) return std::nullopt;
    n = n * base + digit;
  }
  return n;
}

// go-yaml's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool IsYamlStyleFloat(std::string_view s) {
  std::size_t i = 0;
  auto digits = [&] {
    std::size_t start = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    return i - start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  } else {
    if (digits() == 0) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

// strconv.ParseFloat(s, 64) on text IsYamlStyleFloat accepted: nullopt on overflow
// (Go reports ErrRange there, and go-yaml then keeps the scalar as a string).
std::optional<double> ParseGoFloat(std::string_view s) {
  std::string text(s);
  if (!text.empty() && text[0] == '+') text.erase(0, 1);
  double value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc() && end == text.data() + text.size()) return value;
  if (error != std::errc::result_out_of_range) return std::nullopt;
  // Out of range is overflow or underflow; Go rejects only the first.
  value = std::strtod(text.c_str(), nullptr);
  if (std::isinf(value)) return std::nullopt;
  return value;
}

// go-yaml v2's resolve() for a plain (untagged) scalar.
ResolvedScalar ResolvePlain(std::string_view text) {
  ResolvedScalar out;
  out.type = Type::kString;
  out.text = text;
  char hint = Hint(text);
  if (hint == 0) return out;
  if (auto word = FromWordTable(text)) return *word;
  if (hint == '.') {
    // ParseFloat takes Go's digit separators between digits.
    std::string plain;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] != '_') {
        plain.push_back(text[i]);
      } else if (i == 0 || i + 1 == text.size() || !IsDigit(text[i - 1]) || !IsDigit(text[i + 1])) {
        return out;
      }
    }
    if (!IsYamlStyleFloat(plain)) return out;
    if (auto value = ParseGoFloat(plain)) {
      out.type = Type::kFloat;
      out.number = *value;
    }
    return out;
  }
  if (hint != 'D' && hint != 'S') return out;  // 'M' words were in the table
  // A timestamp (2001-12-14) stays the string it was: go-yaml v2 hands timestamps
  // to interface{} as written. None of them parses as a number, so nothing to do.
  std::string plain;
  for (char c : text) {
    if (c != '_') plain.push_back(c);
  }
  std::string_view digits = plain;
  bool negative = false;
  bool signed_text = false;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
    negative = digits[0] == '-';
    signed_text = true;
    digits.remove_prefix(1);
  }
  if (auto magnitude = ParseGoUnsigned(digits)) {
    constexpr std::uint64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
    // ParseInt takes a sign and the int64 range; ParseUint, tried next, takes
    // unsigned text up to 2^64-1.
    bool fits = negative ? *magnitude <= kInt64Max + 1 : (!signed_text || *magnitude <= kInt64Max);
    if (fits) {
      out.type = Type::kInt;
      out.negative = negative && *magnitude != 0;
      out.magnitude = *magnitude;
      return out;
    }
  }
  if (IsYamlStyleFloat(plain)) {
    if (auto value = ParseGoFloat(plain)) {
      out.type = Type::kFloat;
      out.number = *value;
    }
  }
  return out;
}

// The shortest decimal digits that read back as |value| (a double, or a float when
// `single`): |value| = d1.d2…dn × 10^exponent.
struct ShortestDigits {
  std::string digits;
  int exponent = 0;
};

ShortestDigits Shortest(double value, bool single) {
  ShortestDigits out;
  value = std::fabs(value);
  if (value == 0) {
    out.digits = "0";
    return out;
  }
  std::array<char, 64> buffer{};
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer.data(), buffer.size(), "%.*e", precision - 1, value);
    std::string_view text(buffer.data());
    bool same = false;
    if (single) {
      float back = 0;
      std::from_chars(text.data(), text.data() + text.size(), back);
      same = back == static_cast<float>(value);
    } else {
      double back = 0;
      std::from_chars(text.data(), text.data() + text.size(), back);
      same = back == value;
    }
    if (same || precision == 17) break;
  }
  std::string_view text(buffer.data());
  std::size_t e = text.find('e');
  for (char c : text.substr(0, e)) {
    if (IsDigit(c)) out.digits.push_back(c);
  }
  while (out.digits.size() > 1 && out.digits.back() == '0') out.digits.pop_back();
  out.exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
  return out;
}

// Go's strconv 'e' layout: d.ddde±XX.
std::string FormatE(const ShortestDigits& d, bool negative) {
  std::string out = negative ? "-" : "";
  out += d.digits.substr(0, 1);
  if (d.digits.size() > 1) out += "." + d.digits.substr(1);
  int exponent = d.exponent;
  out += exponent < 0 ? "e-" : "e+";
  std::string digits = std::to_string(std::abs(exponent));
  if (digits.size() < 2) digits.insert(0, "0");
  return out + digits;
}

// Go's strconv 'f' layout with exactly the digits given.
std::string FormatF(const ShortestDigits& d, bool negative) {
  std::string out = negative ? "-" : "";
  if (d.exponent < 0) {
    return out + "0." + std::string(static_cast<std::size_t>(-d.exponent - 1), '0') + d.digits;
  }
  auto whole = static_cast<std::size_t>(d.exponent) + 1;
  if (d.digits.size() <= whole) return out + d.digits + std::string(whole - d.digits.size(), '0');
  return out + d.digits.substr(0, whole) + "." + d.digits.substr(whole);
}

// encoding/json's float64 text: 'f' within [1e-6, 1e21), else 'e' with "e-09" → "e-9".
std::string JsonFloat(double value) {
  if (std::isnan(value)) return ".nan";
  if (std::isinf(value)) return value < 0 ? "-.inf" : ".inf";
  ShortestDigits d = Shortest(value, false);
  bool negative = std::signbit(value);
  double magnitude = std::fabs(value);
  if (magnitude != 0 && (magnitude < 1e-6 || magnitude >= 1e21)) {
    std::string out = FormatE(d, negative);
    std::size_t n = out.size();
    if (n >= 4 && out[n - 4] == 'e' && out[n - 3] == '-' && out[n - 2] == '0') out.erase(n - 2, 1);
    return out;
  }
  return FormatF(d, negative);
}

// strconv.FormatFloat(f, 'g', -1, 32), which sigs.k8s.io/yaml uses for float keys.
std::string KeyFloat(double value) {
  if (std::isnan(value)) return ".nan";
  if (std::isinf(value)) return value < 0 ? "-.inf" : ".inf";
  auto single = static_cast<float>(value);
  ShortestDigits d = Shortest(single, true);
  bool negative = std::signbit(single);
  if (d.exponent < -4 || d.exponent >= 6) return FormatE(d, negative);
  return FormatF(d, negative);
}

std::string IntText(const ResolvedScalar& s) {
  return (s.negative ? "-" : "") + std::to_string(s.magnitude);
}

bool IsMergeKey(const YamlNode& key) {
  if (!key.IsScalar() || key.Scalar() != "<<") return false;
  return key.Tag() == "?" || key.Tag() == std::string(kCoreTag) + "merge";
}

// How sigs.k8s.io/yaml names a key in JSON. Keys it refuses (null, collections)
// get a name no string key can have.
std::string JsonKey(const YamlNode& key) {
  if (!key.IsDefined() || (!key.IsScalar() && !key.IsNull())) return {"\0complex", 8};
  return JsonKeyText(ResolveScalar(key));
}

}  // namespace

// go-yaml v2's decoder.mapping and decoder.merge: entries in document order, a merge
// writing the merged mapping's entries (of a sequence of mappings, the last first,
// so earlier ones win), later entries overwriting earlier ones (JsonEntries keeps
// the last of each key).
class JsonEntryCollector {
 public:
  explicit JsonEntryCollector(JsonMapping& out) : out_(out) {}

  void Collect(const YamlNode& map, int depth) {
    if (depth > 32 || !map.IsDefined() || !map.IsMap()) return;
    for (const auto& entry : map) {
      if (!IsMergeKey(entry.first)) {
        Add(entry.first, entry.second);
        continue;
      }
      const YamlNode& merged = entry.second;
      if (merged.IsMap()) {
        Collect(merged, depth + 1);
      } else if (merged.IsSequence()) {
        std::vector<YamlNode> items;  // copies share the nodes; never assign them
        for (const auto& item : merged) items.emplace_back(item);
        for (auto it = items.rbegin(); it != items.rend(); ++it) Collect(*it, depth + 1);
      }
    }
  }

 private:
  void Add(const YamlNode& key, const YamlNode& value) {
    std::string json = JsonKey(key);
    const std::string_view text = key.IsScalar() && json == key.Scalar()
                                      ? key.Scalar()
                                      : out_.converted_keys_.emplace_back(std::move(json));
    out_.rows_.push_back({text.data(), static_cast<std::uint32_t>(text.size()), key.index(),
                          value.index(), static_cast<std::uint32_t>(out_.rows_.size())});
  }

  JsonMapping& out_;
};

std::optional<ResolvedScalar> ResolveTaggedScalar(const std::string& tag, std::string_view text) {
  if (tag == "?") return ResolvePlain(text);
  ResolvedScalar out;
  out.type = Type::kString;
  out.text = text;
  // "!" marks a quoted or block scalar: always a string. So is any tag go-yaml
  // does not resolve (local tags, !!str, !!map on a scalar).
  if (tag.compare(0, kCoreTag.size(), kCoreTag) != 0) return out;
  std::string_view type = std::string_view(tag).substr(kCoreTag.size());
  if (type == "binary") {
    std::optional<std::string> decoded = DecodeBase64(text);
    if (!decoded) return std::nullopt;  // "!!binary value contains invalid base64 data"
    out.text = *decoded;
    return out;
  }
  if (type == "timestamp") {
    // go-yaml's parseTimestamp wants four digits and a '-' first; the layouts after
    // that are not checked here (nor is the value turned into RFC 3339 as go-yaml
    // would: docs/yaml.md).
    bool date =
        text.size() > 4 && text[4] == '-' && std::all_of(text.begin(), text.begin() + 4, IsDigit);
    return date ? std::optional<ResolvedScalar>(out) : std::nullopt;
  }
  if (type != "bool" && type != "int" && type != "float" && type != "null") return out;
  // resolve(): the text resolved as if plain must be of the tag's type ("cannot
  // decode !!str `abc` as a !!int"), an integer also serving as a float.
  ResolvedScalar plain = ResolvePlain(text);
  if ((type == "int" && plain.type == Type::kInt) ||
      (type == "bool" && plain.type == Type::kBool) ||
      (type == "float" && plain.type == Type::kFloat) ||
      (type == "null" && plain.type == Type::kNull)) {
    return plain;
  }
  if (type == "float" && plain.type == Type::kInt) {
    plain.type = Type::kFloat;
    plain.number = static_cast<double>(plain.magnitude) * (plain.negative ? -1 : 1);
    return plain;
  }
  return std::nullopt;
}

ResolvedScalar ResolveScalar(const YamlNode& node) {
  ResolvedScalar out;
  if (!node.IsDefined() || node.IsNull()) return out;
  out.type = Type::kString;
  if (!node.IsScalar()) return out;
  // A tag that does not fit its text never gets here from a document rollcall read
  // (yaml_refusals.h refuses it first); read as the text, as before.
  const std::string_view text = node.Scalar();
  std::optional<ResolvedScalar> resolved = ResolveTaggedScalar(node.Tag(), text);
  if (resolved) return *resolved;
  out.text = text;
  return out;
}

std::string JsonKeyText(const ResolvedScalar& key) {
  // As a value but for a float (single precision, %g) and a null (no key at all).
  if (key.type == Type::kNull) return {"\0null", 5};
  if (key.type == Type::kFloat) return KeyFloat(key.number);
  return JsonScalarText(key);
}

std::string JsonScalarText(const ResolvedScalar& scalar) {
  switch (scalar.type) {
    case Type::kNull:
      return "null";
    case Type::kBool:
      return scalar.boolean ? "true" : "false";
    case Type::kInt:
      return IntText(scalar);
    case Type::kFloat:
      return JsonFloat(scalar.number);
    case Type::kString:
      break;
  }
  return scalar.text;
}

JsonMapping::Entry JsonMapping::At(std::size_t index) const {
  const Row& row = rows_[index];
  return {row.Key(), mapping_.InSameTree(row.key_node), mapping_.InSameTree(row.value)};
}

JsonMapping JsonEntries(const YamlNode& node) {
  JsonMapping out;
  if (!node.IsDefined() || !node.IsMap()) return out;
  out.mapping_ = node;
  out.rows_.reserve(node.size());
  JsonEntryCollector(out).Collect(node, 0);
  // The last of each key wins: sorted by key and, among equal keys, the later first,
  // it is the first of each key, which std::unique keeps. std::sort works in place,
  // where std::stable_sort wanted half the rows again.
  std::vector<JsonMapping::Row>& rows = out.rows_;
  std::sort(rows.begin(), rows.end(),
            [](const JsonMapping::Row& left, const JsonMapping::Row& right) {
              int order = left.Key().compare(right.Key());
              return order != 0 ? order < 0 : left.order > right.order;
            });
  rows.erase(std::unique(rows.begin(), rows.end(),
                         [](const JsonMapping::Row& left, const JsonMapping::Row& right) {
                           return left.Key() == right.Key();
                         }),
             rows.end());
  return out;
}

std::map<std::string, YamlNode> JsonObject(const YamlNode& node) {
  std::map<std::string, YamlNode> out;
  for (const JsonMapping::Entry& entry : JsonEntries(node)) {
    out.emplace_hint(out.end(), entry.key, entry.value);
  }
  return out;
}

bool IsNullWord(std::string_view text) { return OneOf(text, {"", "~", "null", "Null", "NULL"}); }

ResolvedScalar::Type ResolvePlainScalar(std::string_view text) { return ResolvePlain(text).type; }

std::optional<bool> BoolValue(const YamlNode& node) {
  ResolvedScalar scalar = ResolveScalar(node);
  if (scalar.type != Type::kBool) return std::nullopt;
  return scalar.boolean;
}

std::string KeyText(const YamlNode& key) { return JsonKey(key); }

const char* JsonTypeName(ResolvedScalar::Type type) {
  switch (type) {
    case Type::kBool:
      return "bool";
    case Type::kInt:
    case Type::kFloat:
      return "number";
    case Type::kNull:
      return "null";
    case Type::kString:
      break;
  }
  return "string";
}

namespace {

// The API server's words for a value of the wrong JSON type.
std::string RefusedAs(ResolvedScalar::Type type, const std::string& kind,
                      const std::string& api_version, const std::string& go_field,
                      const char* go_type) {
  return "The API server refuses the object: \"" + kind + " in version \\\"" + api_version +
         "\\\" cannot be handled as a " + kind + ": json: cannot unmarshal " + JsonTypeName(type) +
         " into Go struct field " + go_field + " of type " + go_type + "\"";
}

}  // namespace

std::string NotAStringMessage(ResolvedScalar::Type type, const std::string& kind,
                              const std::string& api_version, const std::string& go_field,
                              const char* go_type) {
  return std::string(" is a ") + JsonTypeName(type) +
         " to Kubernetes, which reads unquoted YAML by YAML 1.1's rules; quote it to keep it a "
         "string. " +
         RefusedAs(type, kind, api_version, go_field, go_type);
}

std::string NotABoolMessage(ResolvedScalar::Type type, const std::string& kind,
                            const std::string& api_version, const std::string& go_field) {
  return std::string(" is a ") + JsonTypeName(type) +
         " to Kubernetes, not a bool; write true or false, unquoted. " +
         RefusedAs(type, kind, api_version, go_field, "bool");
}

bool IsNonStringScalar(const YamlNode& node) {
  // Most values are quoted, or plain text no YAML 1.1 rule applies to (its first
  // byte rules out every bool, number and null word): no resolution, no copy.
  if (!node.IsDefined() || !node.IsScalar()) return false;
  if (node.Tag() == "!") return false;
  if (node.Tag() == "?" && Hint(node.Scalar()) == 0) return false;
  Type type = ResolveScalar(node).type;
  return type == Type::kBool || type == Type::kInt || type == Type::kFloat;
}

}  // namespace rollcall
