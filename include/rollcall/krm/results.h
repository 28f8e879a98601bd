// The `results` of a ResourceList (KRM Functions Specification, v1): one entry per
// finding, written by rollcall as YAML text appended to the ResourceList. Every
// string is written double-quoted (JSON escapes are valid YAML), so no message can
// turn into a bool, a number or a key.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rollcall/finding.h"

namespace rollcall {

struct KrmResult {
  std::string message;
  Severity severity = Severity::kError;
  std::string rule;  // tags.rule: the id rollcall.dev/ignore and .rollcall.yaml take
  // resourceRef, when the result is about one item.
  std::string api_version, kind, name, name_space;
  std::string field_path;               // field.path: "spec.template.spec.containers[0]…"
  std::string file_path;                // file.path, from the item's path annotation
  std::optional<long long> file_index;  // file.index
};

// "results:\n- message: …\n  severity: …\n…", with `line_break` ending each line.
std::string ResultsYaml(const std::vector<KrmResult>& results, const std::string& line_break);

}  // namespace rollcall
