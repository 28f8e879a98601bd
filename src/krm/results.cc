#include "rollcall/krm/results.h"

#include <nlohmann/json.hpp>

namespace rollcall {
namespace {

// A double-quoted YAML scalar: JSON's string syntax is a subset of it. Invalid UTF-8
// (from a name in the input) is replaced rather than thrown on.
std::string Quoted(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

class Writer {
 public:
  explicit Writer(const std::string& line_break) : line_break_(line_break) {}

  void Line(const std::string& indent, const std::string& text) {
    out_ += indent + text + line_break_;
  }
  void Field(const std::string& indent, const char* key, const std::string& value) {
    if (!value.empty()) Line(indent, std::string(key) + ": " + Quoted(value));
  }
  std::string Take() { return std::move(out_); }

 private:
  const std::string& line_break_;
  std::string out_;
};

}  // namespace

std::string ResultsYaml(const std::vector<KrmResult>& results, const std::string& line_break) {
  if (results.empty()) return "";
  Writer out(line_break);
  out.Line("", "results:");
  for (const KrmResult& result : results) {
    out.Line("- ", "message: " + Quoted(result.message));
    out.Line("  ", std::string("severity: ") + SeverityName(result.severity));
    if (!result.kind.empty() && !result.name.empty()) {
      out.Line("  ", "resourceRef:");
      out.Field("    ", "apiVersion", result.api_version);
      out.Field("    ", "kind", result.kind);
      out.Field("    ", "name", result.name);
      out.Field("    ", "namespace", result.name_space);
    }
    if (!result.field_path.empty()) {
      out.Line("  ", "field:");
      out.Field("    ", "path", result.field_path);
    }
    if (!result.file_path.empty()) {
      out.Line("  ", "file:");
      out.Field("    ", "path", result.file_path);
      if (result.file_index) out.Line("    ", "index: " + std::to_string(*result.file_index));
    }
    if (!result.rule.empty()) {
      out.Line("  ", "tags:");
      out.Field("    ", "rule", result.rule);
    }
  }
  return out.Take();
}

}  // namespace rollcall
