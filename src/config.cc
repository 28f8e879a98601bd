#include "rollcall/config.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <sstream>

#include "rollcall/document.h"
#include "rollcall/input_error.h"
#include "rollcall/regular_file.h"
#include "rollcall/rules.h"

namespace rollcall {
namespace {

constexpr const char* kConfigName = ".rollcall.yaml";

[[noreturn]] void Fail(const std::string& path, const YAML::Node& node, const std::string& what) {
  YAML::Mark mark = node.IsDefined() ? node.Mark() : YAML::Mark();
  Location where{path, 0, static_cast<std::size_t>(mark.line + 1),
                 static_cast<std::size_t>(mark.column + 1)};
  throw InputError(where, what);
}

std::optional<Severity> ParseSeverity(const std::string& path, const YAML::Node& node) {
  std::string text = ScalarOr(node);
  if (text == "error") return Severity::kError;
  if (text == "warning") return Severity::kWarning;
  if (text == "info") return Severity::kInfo;
  if (text == "off") return std::nullopt;
  Fail(path, node, "severity must be error, warning, info or off, not \"" + text + "\"");
}

std::vector<std::string> StringList(const std::string& path, const YAML::Node& node,
                                    const char* field) {
  std::vector<std::string> out;
  if (!node.IsDefined() || node.IsNull()) return out;
  if (!node.IsSequence()) Fail(path, node, std::string(field) + " must be a list of strings");
  for (const auto& item : node) {
    if (!item.IsScalar()) Fail(path, item, std::string(field) + " must be a list of strings");
    out.push_back(item.Scalar());
  }
  return out;
}

std::vector<std::string> SplitPath(const std::string& dotted) {
  std::vector<std::string> keys;
  std::stringstream in(dotted);
  for (std::string key; std::getline(in, key, '.');) keys.push_back(key);
  return keys;
}

}  // namespace

std::string FindConfigFile(const std::string& start) {
  std::error_code error;
  std::filesystem::path dir = std::filesystem::absolute(start, error).lexically_normal();
  while (!error && !dir.empty()) {
    std::filesystem::path candidate = dir / kConfigName;
    std::error_code missing;  // a missing file sets it; that is no reason to stop
    if (std::filesystem::is_regular_file(candidate, missing)) return candidate.string();
    if (dir == dir.root_path()) break;
    dir = dir.parent_path();
  }
  return "";
}

Config LoadConfig(const std::string& path) {
  RegularFileRead how;
  how.what = "the config file";
  how.max_bytes = kMaxConfigBytes;
  std::string text = ReadRegularFile(path, path, how);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    Location where{path, 0, static_cast<std::size_t>(e.mark.line + 1),
                   static_cast<std::size_t>(e.mark.column + 1)};
    throw InputError(where, "invalid YAML: " + e.msg);
  }
  Config config;
  config.path = path;
  if (root.IsNull()) return config;
  if (!root.IsMap()) Fail(path, root, "the config must be a mapping");
  for (const auto& entry : root) {
    std::string key = ScalarOr(entry.first);
    const YAML::Node& value = entry.second;
    if (key == "rules") {
      if (!value.IsMap()) Fail(path, value, "rules must map rule ids to severities");
      for (const auto& rule : value) {
        std::string id = ScalarOr(rule.first);
        if (FindRule(id) == nullptr) {
          Fail(path, rule.first, "unknown rule id \"" + id + "\" (see rollcall rules)");
        }
        config.severities[id] = ParseSeverity(path, rule.second);
      }
    } else if (key == "runtimeSources") {
      config.runtime_sources = StringList(path, value, "runtimeSources");
    } else if (key == "runOnce") {
      config.run_once_patterns = StringList(path, value, "runOnce");
    } else if (key == "consumerKinds") {
      if (!value.IsSequence()) Fail(path, value, "consumerKinds must be a list");
      for (const auto& item : value) {
        ConsumerKind kind;
        kind.kind = ScalarOr(Child(item, "kind"));
        kind.api_group = ScalarOr(Child(item, "apiGroup"));
        kind.path = SplitPath(ScalarOr(Child(item, "path")));
        if (kind.kind.empty() || kind.path.empty()) {
          Fail(path, item, "a consumer kind needs kind and path (apiGroup: \"\" for core)");
        }
        config.consumer_kinds.push_back(std::move(kind));
      }
    } else {
      Fail(path, entry.first,
           "unknown setting \"" + key + "\" (rules, runtimeSources, consumerKinds, runOnce)");
    }
  }
  return config;
}

}  // namespace rollcall
