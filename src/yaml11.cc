#include "rollcall/yaml11.h"

#include <array>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace rollcall {
namespace {

bool IsOneOf(std::string_view text, std::initializer_list<std::string_view> words) {
  for (std::string_view word : words) {
    if (text == word) return true;
  }
  return false;
}

// go-yaml v2's resolveMap: the words resolved without looking further.
std::optional<Yaml11Type> MapWord(std::string_view text) {
  if (IsOneOf(text,
              {"y", "Y", "yes", "Yes", "YES", "true",  "True",  "TRUE",  "on",  "On",  "ON",
               "n", "N", "no",  "No",  "NO",  "false", "False", "FALSE", "off", "Off", "OFF"})) {
    return Yaml11Type::kBool;
  }
  if (IsOneOf(text, {"", "~", "null", "Null", "NULL"})) return Yaml11Type::kNull;
  if (IsOneOf(text, {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF",
                     "-.inf", "-.Inf", "-.INF"})) {
    return Yaml11Type::kFloat;
  }
  return std::nullopt;
}

int DigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

// strconv.ParseInt(text, 0, 64) succeeds, or else strconv.ParseUint(text, 0, 64):
// an optional sign (ParseUint takes none), a base prefix 0x, 0o, 0b or a leading 0
// for octal, at least one digit of the base, and a value within int64 (uint64
// without a sign).
bool IsGoInteger(std::string_view text) {
  bool negative = false;
  bool signed_ = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    signed_ = true;
    text.remove_prefix(1);
  }
  int base = 10;
  if (text.size() >= 2 && text[0] == '0') {
    char prefix = text[1];
    if (prefix == 'x' || prefix == 'X') {
      base = 16;
      text.remove_prefix(2);
    } else if (prefix == 'o' || prefix == 'O') {
      base = 8;
      text.remove_prefix(2);
    } else if (prefix == 'b' || prefix == 'B') {
      base = 2;
      text.remove_prefix(2);
    } else {
      base = 8;
      text.remove_prefix(1);
    }
  }
  if (text.empty()) return false;
  std::uint64_t value = 0;
  for (char c : text) {
    int digit = DigitValue(c);
    if (digit >= base) return false;
    const auto b = static_cast<std::uint64_t>(base);
    const auto d = static_cast<std::uint64_t>(digit);
    if (value > (UINT64_MAX - d) / b) return false;  // past uint64: past every range
    value = value * b + d;
  }
  constexpr auto kInt64Max = static_cast<std::uint64_t>(INT64_MAX);
  if (negative) return value <= kInt64Max + 1;
  if (signed_) return value <= kInt64Max;
  return true;
}

// The decimal digits of an integer IsGoInteger accepts (underscores dropped):
// sigs.k8s.io/yaml writes an integer key so.
std::string IntegerDigits(std::string_view text) {
  std::string plain;
  for (char c : text) {
    if (c != '_') plain += c;
  }
  std::string_view digits(plain);
  const bool negative = !digits.empty() && digits[0] == '-';
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
  std::uint64_t base = 10;
  if (digits.size() >= 2 && digits[0] == '0') {
    const char prefix = digits[1];
    const bool letter = std::string_view("xXoObB").find(prefix) != std::string_view::npos;
    base = prefix == 'x' || prefix == 'X' ? 16 : prefix == 'b' || prefix == 'B' ? 2 : 8;
    digits.remove_prefix(letter ? 2 : 1);
  }
  std::uint64_t value = 0;
  for (char c : digits) value = value * base + static_cast<std::uint64_t>(DigitValue(c));
  std::string out = std::to_string(value);
  return negative && value != 0 ? "-" + out : out;
}

// yamlStyleFloat, and strconv.ParseFloat(text, 64) without overflow.
bool IsYamlStyleFloat(std::string_view text) {
  std::size_t i = 0;
  auto digits = [&] {
    std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - start;
  };
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  if (i < text.size() && text[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  } else {
    if (digits() == 0) return false;
    if (i < text.size() && text[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  if (i != text.size()) return false;
  std::string copy(text);
  errno = 0;
  double value = std::strtod(copy.c_str(), nullptr);
  return !std::isinf(value);  // Go's ParseFloat refuses an overflow (ErrRange)
}

// A plain scalar starting with '.' that is not in the map: strconv.ParseFloat.
bool IsDotFloat(std::string_view text) { return IsYamlStyleFloat(text); }

// parseTimestamp's quick check and formats, enough to tell a date from a number:
// four digits and '-' first. Such a scalar is a string to Kubernetes either way
// (go-yaml v2 keeps a timestamp's text), so only the quick check matters here.
bool LooksLikeTimestamp(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
  return i == 4 && i < text.size() && text[i] == '-';
}

}  // namespace

Yaml11Type ResolvePlainScalar(std::string_view text) {
  if (std::optional<Yaml11Type> word = MapWord(text)) return *word;
  if (text.empty()) return Yaml11Type::kNull;
  const char first = text[0];
  if (first == '.') return IsDotFloat(text) ? Yaml11Type::kFloat : Yaml11Type::kString;
  const bool number_hint = (first >= '0' && first <= '9') || first == '+' || first == '-';
  if (!number_hint || LooksLikeTimestamp(text)) return Yaml11Type::kString;
  std::string plain;
  plain.reserve(text.size());
  for (char c : text) {
    if (c != '_') plain += c;
  }
  if (IsGoInteger(plain)) return Yaml11Type::kInt;
  if (IsYamlStyleFloat(plain)) return Yaml11Type::kFloat;
  return Yaml11Type::kString;
}

Yaml11Type ScalarType(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return Yaml11Type::kNull;
  if (!node.IsScalar()) return Yaml11Type::kString;
  const std::string& tag = node.Tag();
  if (tag == "?") return ResolvePlainScalar(node.Scalar());
  if (tag == "tag:yaml.org,2002:bool") return Yaml11Type::kBool;
  if (tag == "tag:yaml.org,2002:int") return Yaml11Type::kInt;
  if (tag == "tag:yaml.org,2002:float") return Yaml11Type::kFloat;
  if (tag == "tag:yaml.org,2002:null") return Yaml11Type::kNull;
  return Yaml11Type::kString;  // "!" (quoted), !!str, !!binary, a custom tag
}

std::optional<bool> BoolValue(const YAML::Node& node) {
  if (ScalarType(node) != Yaml11Type::kBool) return std::nullopt;
  const std::string& text = node.Scalar();
  return IsOneOf(text, {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"});
}

std::string KeyText(const YAML::Node& key) {
  if (!key.IsDefined() || !key.IsScalar()) return "";
  const std::string& text = key.Scalar();
  switch (ScalarType(key)) {
    case Yaml11Type::kBool:
      return *BoolValue(key) ? "true" : "false";
    case Yaml11Type::kInt:
      return IntegerDigits(text);
    default:
      return text;  // a float key is rare enough to keep its text; null keys likewise
  }
}

const char* JsonTypeName(Yaml11Type type) {
  switch (type) {
    case Yaml11Type::kBool:
      return "bool";
    case Yaml11Type::kInt:
    case Yaml11Type::kFloat:
      return "number";
    case Yaml11Type::kNull:
      return "null";
    case Yaml11Type::kString:
      return "string";
  }
  return "string";
}

}  // namespace rollcall
