// YAML values compared as the API server receives them: scalars and keys as
// yaml11.h reads them, the quantity rules after k8s.io/apimachinery/pkg/api/resource.
#include "rollcall/previous/semantic_equal.h"

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

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool OneOf(std::string_view s, std::initializer_list<std::string_view> words) {
  return std::find(words.begin(), words.end(), s) != words.end();
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

  bool Equal(const YamlNode& a, const YamlNode& b, Context context, int depth) {
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
  bool Absent(const YamlNode& node) const {
    if (!node.IsDefined() || node.IsNull()) return true;
    return options_.empty_is_absent && (node.IsSequence() || node.IsMap()) && node.size() == 0;
  }

  bool MapsEqual(const YamlNode& a, const YamlNode& b, Context context, int depth) {
    std::map<std::string, YamlNode> ma = JsonObject(a);
    std::map<std::string, YamlNode> mb = JsonObject(b);
    const YamlNode missing;
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

bool SemanticEqual(const YamlNode& a, const YamlNode& b, const EqualOptions& options) {
  return Comparer(options).Equal(a, b, Context::kPlain, 0);
}

bool SemanticEqualAt(const std::string& key, const YamlNode& a, const YamlNode& b,
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
