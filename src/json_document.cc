#include "rollcall/json_document.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "rollcall/utf8.h"
#include "rollcall/yaml_text.h"

namespace rollcall {
namespace {

// One past the string whose opening quote is at `pos`: its closing quote's next byte.
std::size_t StringEnd(std::string_view text, std::size_t pos) {
  for (std::size_t i = pos + 1; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1;
    }
  }
  return text.size();
}

}  // namespace

std::string JsonForYamlParser(std::string_view text) {
  std::string copy(text);
  for (std::size_t i = 0; i < copy.size(); ++i) {
    if (copy[i] == '"') {
      const std::size_t end = StringEnd(text, i);
      for (std::size_t k = i + 1; k + 1 < end; ++k) copy[k] = 'x';
      i = end - 1;
    } else if (copy[i] == '\t' || copy[i] == '\r') {
      copy[i] = ' ';
    }
  }
  copy.push_back('\n');
  return copy;
}

std::string JsonStringAt(std::string_view text, std::size_t pos) {
  const std::string_view token = text.substr(pos, StringEnd(text, pos) - pos);
  return nlohmann::json::parse(token).get<std::string>();
}

bool IsJsonNumberOverflow(std::string_view number) {
  if (number.find_first_of("eE") == std::string_view::npos && number.size() < 300) return false;
  const std::string text(number);
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && errno == ERANGE && std::isinf(value);
}

std::optional<TextProblem> FindJsonTextProblem(std::string_view text, const Limits& limits) {
  if (std::optional<TextProblem> problem = FindOversizedDocument(text, limits)) return problem;
  std::size_t depth = 0;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"') {
      const std::size_t end = StringEnd(text, i);
      for (std::size_t k = i + 1; k < end;) {
        char32_t decoded = 0;
        const std::size_t length = DecodeUtf8(text, k, decoded);
        if (length == 0) {
          // Placed at the line's start: the byte may be inside a Secret's value.
          return TextProblem{TextProblem::Kind::kInvalidCharacter,
                             SkipBlanks(text, LineStartOf(text, k)),
                             "invalid UTF-8: this line holds a byte that is not part of a UTF-8 "
                             "character (Kubernetes' JSON reader would read it as U+FFFD)"};
        }
        k += length;
      }
      i = end;
      continue;
    }
    if (c == '{' || c == '[') {
      if (++depth > limits.max_depth) {
        return TextProblem{TextProblem::Kind::kTooDeep, i, TooDeepMessage(limits.max_depth)};
      }
    } else if (c == '}' || c == ']') {
      --depth;
    }
    ++i;
  }
  return std::nullopt;
}

}  // namespace rollcall
