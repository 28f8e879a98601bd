#include "rollcall/config.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <sstream>

#include "rollcall/document.h"
#include "rollcall/input_error.h"
#include "rollcall/regular_file.h"
#include "rollcall/rules.h"

namespace fs = std::filesystem;

namespace rollcall {
namespace {

constexpr const char* kConfigName = ".rollcall.yaml";

// Config errors point at the key or value by line and column and never quote it: a
// file passed as --config may be anything, a Secret's manifest included.
// The config file is read by yaml-cpp: it is rollcall's own file, never edited, and
// read once (Kubernetes documents go through yaml_tree.h).
std::string ScalarOr(const YAML::Node& node) {
  return node.IsDefined() && node.IsScalar() ? node.Scalar() : std::string();
}

// The value of `key` in a mapping (the last one when written twice), or an
// undefined node; yaml-cpp's own lookup would take the first, and insert.
YAML::Node Field(const YAML::Node& map, const char* key) {
  YAML::Node found(YAML::NodeType::Undefined);
  if (!map.IsMap()) return found;
  for (const auto& entry : map) {
    if (entry.first.IsScalar() && entry.first.Scalar() == key) found.reset(entry.second);
  }
  return found;
}

// The built-in kind a config entry would match too, or null: the same kind, in its
// group or any group ("*").
const ConsumerKind* BuiltinKindCovered(const ConsumerKind& entry) {
  for (const ConsumerKind& builtin : BuiltinConsumerKinds()) {
    if (builtin.kind == entry.kind &&
        (entry.api_group == "*" || entry.api_group == builtin.api_group)) {
      return &builtin;
    }
  }
  return nullptr;
}

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
  Fail(path, node, "a severity must be error, warning, info or off");
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

// Whether `dir` holds an entry called `name`, of any type (a link is not followed).
bool Holds(const fs::path& dir, const char* name) {
  std::error_code error;
  return fs::exists(fs::symlink_status(dir / name, error));
}

// The root of the git work tree `dir` is in: the nearest directory, `dir` itself or
// upward, that holds .git (a directory, or a file in a linked work tree or a
// submodule). Empty outside any work tree. git itself is not run.
fs::path WorkTreeRoot(fs::path dir) {
  for (;;) {
    if (Holds(dir, ".git")) return dir;
    if (dir == dir.root_path() || dir.empty()) return {};
    dir = dir.parent_path();
  }
}

std::vector<std::string> SplitPath(const std::string& dotted) {
  std::vector<std::string> keys;
  std::stringstream in(dotted);
  for (std::string key; std::getline(in, key, '.');) keys.push_back(key);
  return keys;
}

}  // namespace

ConfigSearch SearchConfigFile(const std::string& start) {
  ConfigSearch search;
  std::error_code error;
  fs::path dir = fs::absolute(start, error).lexically_normal();
  if (error || dir.empty()) return search;
  if (!dir.has_filename() && dir != dir.root_path()) dir = dir.parent_path();  // "/a/b/"
  search.start = dir.string();
  fs::path root = WorkTreeRoot(dir);
  search.work_tree = root.string();
  for (;;) {
    // Whatever it is: a named pipe or a dangling link called .rollcall.yaml is an
    // error when read, not a reason to look further up.
    if (Holds(dir, kConfigName)) {
      search.found = (dir / kConfigName).string();
      break;
    }
    if (root.empty() || dir == root || dir == dir.root_path()) break;
    dir = dir.parent_path();
  }
  return search;
}

std::string FindConfigFile(const std::string& start) { return SearchConfigFile(start).found; }

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
          Fail(path, rule.first, "no rule has this id (rollcall rules lists them)");
        }
        config.severities[id] = ParseSeverity(path, rule.second);
      }
    } else if (key == "runtimeSources") {
      config.runtime_sources = StringList(path, value, "runtimeSources");
    } else if (key == "runOnce") {
      config.run_once_patterns = StringList(path, value, "runOnce");
    } else if (key == "consumerKinds") {
      if (!value.IsSequence()) Fail(path, value, "consumerKinds must be a list");
      // Each entry is looked up for every object of every stream.
      if (value.size() > kMaxConsumerKinds) {
        Fail(path, value,
             "more than " + std::to_string(kMaxConsumerKinds) + " consumerKinds entries");
      }
      for (const auto& item : value) {
        ConsumerKind kind;
        kind.kind = ScalarOr(Field(item, "kind"));
        kind.api_group = ScalarOr(Field(item, "apiGroup"));
        kind.path = SplitPath(ScalarOr(Field(item, "path")));
        if (kind.kind.empty() || kind.path.empty()) {
          Fail(path, item, "a consumer kind needs kind and path (apiGroup: \"\" for core)");
        }
        // An entry for a built-in kind would be searched first, and a wrong path there
        // silently hides every pod template of that kind from every rule.
        if (const ConsumerKind* builtin = BuiltinKindCovered(kind)) {
          Fail(
              path, item,
              "this entry would replace the built-in kind " + builtin->kind +
                  (builtin->api_group.empty() ? " (core group)" : " (" + builtin->api_group + ")") +
                  ", whose pod template rollcall already reads; consumerKinds only adds kinds");
        }
        config.consumer_kinds.push_back(std::move(kind));
      }
    } else {
      Fail(path, entry.first,
           "not a setting rollcall knows (rules, runtimeSources, consumerKinds, runOnce)");
    }
  }
  return config;
}

}  // namespace rollcall
