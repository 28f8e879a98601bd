// YAML values compared as the API server receives them. The scalar rules follow
// go-yaml v2's resolve.go (what sigs.k8s.io/yaml runs), the key rules follow
// sigs.k8s.io/yaml's conversion to JSON, the quantity rules follow
// k8s.io/apimachinery/pkg/api/resource.
#include "rollcall/semantic_equal.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
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
  } else if (OneOf(s, {"", "~", "null", "Null", "NULL"})) {
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
ResolvedScalar ResolvePlain(const std::string& text) {
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

bool IsMergeKey(const YAML::Node& key) {
  if (!key.IsScalar() || key.Scalar() != "<<") return false;
  return key.Tag() == "?" || key.Tag() == std::string(kCoreTag) + "merge";
}

// How sigs.k8s.io/yaml names a key in JSON. Keys it refuses (null, collections)
// get a name no string key can have.
std::string JsonKey(const YAML::Node& key) {
  if (!key.IsDefined() || (!key.IsScalar() && !key.IsNull())) return {"\0complex", 8};
  ResolvedScalar s = ResolveScalar(key);
  switch (s.type) {
    case Type::kNull:
      return {"\0null", 5};
    case Type::kBool:
      return s.boolean ? "true" : "false";
    case Type::kInt:
      return IntText(s);
    case Type::kFloat:
      return KeyFloat(s.number);
    case Type::kString:
      break;
  }
  return s.text;
}

void Put(std::map<std::string, YAML::Node>& out, std::string key, const YAML::Node& value) {
  auto [it, inserted] = out.emplace(std::move(key), value);
  // reset(), not operator=: yaml-cpp's assignment writes through into the tree.
  if (!inserted) it->second.reset(value);
}

// go-yaml v2's decoder.mapping and decoder.merge: entries in document order, a merge
// writing the merged mapping's entries (of a sequence of mappings, the last first,
// so earlier ones win), later entries overwriting earlier ones.
void CollectEntries(const YAML::Node& map, std::map<std::string, YAML::Node>& out, int depth) {
  if (depth > 32 || !map.IsDefined() || !map.IsMap()) return;
  for (const auto& entry : map) {
    if (!IsMergeKey(entry.first)) {
      Put(out, JsonKey(entry.first), entry.second);
      continue;
    }
    const YAML::Node& merged = entry.second;
    if (merged.IsMap()) {
      CollectEntries(merged, out, depth + 1);
    } else if (merged.IsSequence()) {
      std::vector<YAML::Node> items;  // copies share the nodes; never assign them
      for (const auto& item : merged) items.emplace_back(item);
      for (auto it = items.rbegin(); it != items.rend(); ++it) CollectEntries(*it, out, depth + 1);
    }
  }
}

// ---- Quantities --------------------------------------------------------------

void DoubleDecimal(std::string& digits) {
  int carry = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    int d = (*it - '0') * 2 + carry;
    *it = static_cast<char>('0' + d % 10);
    carry = d / 10;
  }
  if (carry != 0) digits.insert(digits.begin(), static_cast<char>('0' + carry));
}

void IncrementDecimal(std::string& digits) {
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    if (*it != '9') {
      ++*it;
      return;
    }
    *it = '0';
  }
  digits.insert(digits.begin(), '1');
}

// A parsed quantity, exactly: sign, and the magnitude in nano units written as
// significant digits followed by `zeros` zeros, so that 1e1000000000 needs no
// billion digits.
struct Quantity {
  bool negative = false;
  std::string digits;  // no leading or trailing zeros; "" for zero
  std::int64_t zeros = 0;
};

// The suffix of a quantity: a power of ten, or of two (binary SI).
struct Suffix {
  std::int64_t exp10 = 0;
  int exp2 = 0;
};

std::optional<Suffix> InterpretSuffix(std::string_view s) {
  static const std::array<std::pair<std::string_view, int>, 10> kDecimal = {{
      {"", 0},
      {"n", -9},
      {"u", -6},
      {"m", -3},
      {"k", 3},
      {"M", 6},
      {"G", 9},
      {"T", 12},
      {"P", 15},
      {"E", 18},
  }};
  static const std::array<std::pair<std::string_view, int>, 6> kBinary = {{
      {"Ki", 10},
      {"Mi", 20},
      {"Gi", 30},
      {"Ti", 40},
      {"Pi", 50},
      {"Ei", 60},
  }};
  for (const auto& [name, exp] : kDecimal) {
    if (s == name) return Suffix{exp, 0};
  }
  for (const auto& [name, exp] : kBinary) {
    if (s == name) return Suffix{0, exp};
  }
  if (s.size() < 2 || (s[0] != 'e' && s[0] != 'E')) return std::nullopt;
  std::string_view digits = s.substr(1);
  bool negative = digits[0] == '-';
  if (digits[0] == '-' || digits[0] == '+') digits.remove_prefix(1);
  if (digits.empty() || digits.size() > 18) return std::nullopt;  // about ParseInt's range
  std::int64_t exp = 0;
  for (char c : digits) {
    if (!IsDigit(c)) return std::nullopt;
    exp = exp * 10 + (c - '0');
  }
  return Suffix{negative ? -exp : exp, 0};
}

// resource.ParseQuantity, down to the value it stores: the text's exact value,
// rounded up (away from zero) to a whole nano. (Its cap at 2^63-1, which only
// numbers of 19 significant digits or more ever reach, is left out.)
std::optional<Quantity> ParseQuantity(std::string_view str) {
  if (str.empty()) return std::nullopt;
  Quantity out;
  std::size_t pos = 0;
  const std::size_t end = str.size();
  if (str[0] == '-' || str[0] == '+') {
    out.negative = str[0] == '-';
    ++pos;
  }
  while (pos < end && str[pos] == '0') ++pos;
  if (pos == end) return Quantity{};  // "0", "-000", even a bare sign: zero
  std::size_t start = pos;
  while (pos < end && IsDigit(str[pos])) ++pos;
  std::string_view num = str.substr(start, pos - start);
  std::string_view denom;
  if (pos < end && str[pos] == '.') {
    start = ++pos;
    while (pos < end && IsDigit(str[pos])) ++pos;
    denom = str.substr(start, pos - start);
  }
  std::size_t suffix_start = pos;
  while (pos < end && std::string_view("eEinumkKMGTP").find(str[pos]) != std::string_view::npos) {
    ++pos;
  }
  if (pos < end && (str[pos] == '-' || str[pos] == '+')) ++pos;
  while (pos < end && IsDigit(str[pos])) ++pos;
  if (pos != end) return std::nullopt;
  std::optional<Suffix> suffix = InterpretSuffix(str.substr(suffix_start));
  if (!suffix) return std::nullopt;

  std::string digits = std::string(num) + std::string(denom);
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
  if (digits.empty()) return Quantity{};
  for (int i = 0; i < suffix->exp2; ++i) DoubleDecimal(digits);
  // The value is digits × 10^shift nano units.
  std::int64_t shift = suffix->exp10 - static_cast<std::int64_t>(denom.size()) + 9;
  if (shift < 0) {
    // Below a nano: drop the digits, and round up if any of them was not zero.
    // `digits` has no leading zeros, so what stays is empty or starts non-zero.
    auto drop = static_cast<std::uint64_t>(-shift);
    bool fraction = true;
    if (drop < digits.size()) {
      std::string_view dropped = std::string_view(digits).substr(digits.size() - drop);
      fraction = dropped.find_first_not_of('0') != std::string_view::npos;
      digits.resize(digits.size() - drop);
    } else {
      digits = "0";
    }
    if (fraction) IncrementDecimal(digits);
    shift = 0;
  }
  std::size_t significant = digits.find_last_not_of('0') + 1;
  out.zeros = shift + static_cast<std::int64_t>(digits.size() - significant);
  digits.resize(significant);
  out.digits = std::move(digits);
  return out;
}

int CompareMagnitude(const Quantity& a, const Quantity& b) {
  if (a.digits.empty() || b.digits.empty()) {
    return a.digits.empty() == b.digits.empty() ? 0 : a.digits.empty() ? -1 : 1;
  }
  std::int64_t length_a = static_cast<std::int64_t>(a.digits.size()) + a.zeros;
  std::int64_t length_b = static_cast<std::int64_t>(b.digits.size()) + b.zeros;
  if (length_a != length_b) return length_a < length_b ? -1 : 1;
  // Same number of digits: compare the significant ones, the shorter padded with 0.
  for (std::size_t i = 0; i < std::max(a.digits.size(), b.digits.size()); ++i) {
    char da = i < a.digits.size() ? a.digits[i] : '0';
    char db = i < b.digits.size() ? b.digits[i] : '0';
    if (da != db) return da < db ? -1 : 1;
  }
  return 0;
}

int CompareParsed(const Quantity& a, const Quantity& b) {
  bool a_negative = a.negative && !a.digits.empty();
  bool b_negative = b.negative && !b.digits.empty();
  if (a_negative != b_negative) return a_negative ? -1 : 1;
  int c = CompareMagnitude(a, b);
  return a_negative ? -c : c;
}

// ---- Comparison --------------------------------------------------------------

// What the keys above a value say about it.
enum class Context { kPlain, kQuantityMap, kQuantity };

// The context of the value of `key` in a mapping whose own context is `parent`.
Context ChildContext(Context parent, const std::string& key, const EqualOptions& options) {
  if (parent == Context::kQuantityMap) return Context::kQuantity;
  if (!options.quantities) return Context::kPlain;
  if (OneOf(key, {"requests", "limits", "overhead", "hard", "capacity", "allocatable"})) {
    return Context::kQuantityMap;
  }
  return key == "sizeLimit" ? Context::kQuantity : Context::kPlain;
}

class Comparer {
 public:
  explicit Comparer(const EqualOptions& options) : options_(options) {}

  bool Equal(const YAML::Node& a, const YAML::Node& b, Context context, int depth) {
    // Aliases can make a YAML graph cyclic, or exponentially large; go-yaml rejects
    // both, so giving up (unequal) on them is safe.
    if (depth > kMaxDepth || ++visits_ > kMaxVisits) return false;
    if (a.IsDefined() && b.IsDefined() && a.is(b)) return true;
    std::optional<ResolvedScalar> scalar_a;
    std::optional<ResolvedScalar> scalar_b;
    if (a.IsDefined() && a.IsScalar()) scalar_a = ResolveScalar(a);
    if (b.IsDefined() && b.IsScalar()) scalar_b = ResolveScalar(b);
    bool a_absent = scalar_a ? scalar_a->type == Type::kNull : Absent(a);
    bool b_absent = scalar_b ? scalar_b->type == Type::kNull : Absent(b);
    if (a_absent || b_absent) return a_absent && b_absent;
    if (a.IsMap() || b.IsMap()) {
      if (!a.IsMap() || !b.IsMap()) return false;
      return MapsEqual(a, b, context, depth);
    }
    if (a.IsSequence() || b.IsSequence()) {
      if (!a.IsSequence() || !b.IsSequence() || a.size() != b.size()) return false;
      auto ia = a.begin();
      auto ib = b.begin();
      for (; ia != a.end() && ib != b.end(); ++ia, ++ib) {
        if (!Equal(*ia, *ib, Context::kPlain, depth + 1)) return false;
      }
      return true;
    }
    return scalar_a && scalar_b && ScalarsEqual(*scalar_a, *scalar_b, context);
  }

 private:
  static constexpr int kMaxDepth = 1024;
  static constexpr long kMaxVisits = 1'000'000;  // a large CRD has some 100,000 nodes

  // Absent, null, or (with empty_is_absent) an empty collection; scalars aside.
  bool Absent(const YAML::Node& node) const {
    if (!node.IsDefined() || node.IsNull()) return true;
    return options_.empty_is_absent && (node.IsSequence() || node.IsMap()) && node.size() == 0;
  }

  bool MapsEqual(const YAML::Node& a, const YAML::Node& b, Context context, int depth) {
    std::map<std::string, YAML::Node> ma = JsonObject(a);
    std::map<std::string, YAML::Node> mb = JsonObject(b);
    const YAML::Node missing(YAML::NodeType::Undefined);
    auto child_context = [&](const std::string& key) {
      return ChildContext(context, key, options_);
    };
    for (const auto& [key, value] : ma) {
      auto other = mb.find(key);
      if (!Equal(value, other == mb.end() ? missing : other->second, child_context(key),
                 depth + 1)) {
        return false;
      }
    }
    return std::all_of(mb.begin(), mb.end(), [&](const auto& entry) {
      return ma.count(entry.first) != 0 ||
             Equal(missing, entry.second, child_context(entry.first), depth + 1);
    });
  }

  static bool ScalarsEqual(const ResolvedScalar& a, const ResolvedScalar& b, Context context) {
    if (context == Context::kQuantity && a.type != Type::kBool && b.type != Type::kBool) {
      // resource.Quantity reads a JSON string or number alike, and compares values.
      std::string ta = JsonScalarText(a);
      std::string tb = JsonScalarText(b);
      if (IsQuantity(ta) && IsQuantity(tb)) return QuantityEqual(ta, tb);
    }
    if (a.type == Type::kInt && b.type == Type::kFloat) return IntEqualsFloat(a, b.number);
    if (a.type == Type::kFloat && b.type == Type::kInt) return IntEqualsFloat(b, a.number);
    if (a.type != b.type) return false;
    switch (a.type) {
      case Type::kNull:
        return true;
      case Type::kBool:
        return a.boolean == b.boolean;
      case Type::kInt:
        return a.negative == b.negative && a.magnitude == b.magnitude;
      case Type::kFloat:
        return a.number == b.number || (std::isnan(a.number) && std::isnan(b.number));
      case Type::kString:
        return a.text == b.text;
    }
    return false;
  }

  // JSON has one number type: 3 and 3.0 are the same value.
  static bool IntEqualsFloat(const ResolvedScalar& i, double f) {
    if (!std::isfinite(f) || std::trunc(f) != f) return false;
    double magnitude = std::fabs(f);
    if (magnitude >= 18446744073709551616.0) return false;  // 2^64
    if (magnitude != 0 && (f < 0) != i.negative) return false;
    return static_cast<std::uint64_t>(magnitude) == i.magnitude;
  }

  const EqualOptions& options_;
  long visits_ = 0;
};

}  // namespace

ResolvedScalar ResolveScalar(const YAML::Node& node) {
  ResolvedScalar out;
  if (!node.IsDefined() || node.IsNull()) return out;
  out.type = Type::kString;
  if (!node.IsScalar()) return out;
  const std::string& tag = node.Tag();
  out.text = node.Scalar();
  if (tag == "?") return ResolvePlain(out.text);
  // "!" marks a quoted or block scalar: always a string. So is any tag go-yaml
  // does not resolve (local tags, !!str, !!timestamp, even !!null).
  if (tag.compare(0, kCoreTag.size(), kCoreTag) != 0) return out;
  std::string_view type = std::string_view(tag).substr(kCoreTag.size());
  ResolvedScalar plain = ResolvePlain(out.text);
  if ((type == "int" && plain.type == Type::kInt) ||
      (type == "bool" && plain.type == Type::kBool) ||
      (type == "float" && plain.type == Type::kFloat)) {
    return plain;
  }
  if (type == "float" && plain.type == Type::kInt) {
    plain.type = Type::kFloat;
    plain.number = static_cast<double>(plain.magnitude) * (plain.negative ? -1 : 1);
    return plain;
  }
  if (type == "binary") {
    if (auto decoded = DecodeBase64(out.text)) out.text = *decoded;
  }
  return out;
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

std::map<std::string, YAML::Node> JsonObject(const YAML::Node& node) {
  std::map<std::string, YAML::Node> out;
  CollectEntries(node, out, 0);
  return out;
}

bool SemanticEqual(const YAML::Node& a, const YAML::Node& b, const EqualOptions& options) {
  return Comparer(options).Equal(a, b, Context::kPlain, 0);
}

bool SemanticEqualAt(const std::string& key, const YAML::Node& a, const YAML::Node& b,
                     const EqualOptions& options) {
  return Comparer(options).Equal(a, b, ChildContext(Context::kPlain, key, options), 0);
}

bool IsQuantity(std::string_view text) { return ParseQuantity(text).has_value(); }

bool QuantityEqual(std::string_view a, std::string_view b) { return CompareQuantity(a, b) == 0; }

int CompareQuantity(std::string_view a, std::string_view b) {
  std::optional<Quantity> qa = ParseQuantity(a);
  std::optional<Quantity> qb = ParseQuantity(b);
  if (qa && qb) return CompareParsed(*qa, *qb);
  int c = a.compare(b);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

}  // namespace rollcall
