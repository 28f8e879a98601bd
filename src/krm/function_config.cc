#include "rollcall/krm/function_config.h"

#include <set>
#include <sstream>

#include "rollcall/input_error.h"
#include "rollcall/yaml_text.h"

namespace rollcall {
namespace {

constexpr const char* kOptionList = "namespace, jobPolicy, runOncePatterns, strict, config";

// Reads the options of one function config. A ConfigMap's data holds only strings,
// so every value may come as a string; the typed object may use YAML's own types.
class OptionReader {
 public:
  OptionReader(const Document& doc, FunctionConfig& config) : doc_(doc), config_(config) {}

  void Read(const YamlNode& key, const YamlNode& value) {
    const std::string name(key.Scalar());
    if (name == "namespace") {
      config_.name_space = NonEmptyString(name, value);
    } else if (name == "jobPolicy") {
      config_.job_policy = ParseJobPolicy(ScalarOr(value));
      if (!config_.job_policy) throw Error(value, "jobPolicy must be rename or keep");
    } else if (name == "runOncePatterns") {
      config_.run_once_patterns = Patterns(value);
    } else if (name == "strict") {
      config_.strict = Bool(name, value);
    } else if (name == "config") {
      config_.config_path = NonEmptyString(name, value);
    } else if (name == "hmacKeyFile") {
      // The function config comes with the package: a key file named there could be
      // any local file, and a package's expected hashes would test guesses of it.
      throw Error(key,
                  "hmacKeyFile is not taken from the function config, which comes with the "
                  "package: the key file is the user's to give, as ROLLCALL_HMAC_KEY_FILE in the "
                  "function's environment");
    } else {
      throw Error(key, "unknown option '" + name + "' in rollcall's function config (it takes " +
                           kOptionList + ")");
    }
  }

 private:
  InputError Error(const YamlNode& node, const std::string& what) const {
    return InputError(doc_.Locate(node.Mark()), what);
  }

  std::string NonEmptyString(const std::string& name, const YamlNode& value) const {
    std::string text(value.Scalar());  // "" for anything but a scalar
    if (text.empty()) throw Error(value, name + " must be a non-empty string");
    return text;
  }

  bool Bool(const std::string& name, const YamlNode& value) const {
    static const std::set<std::string> kTrue = {"true", "True", "TRUE"};
    static const std::set<std::string> kFalse = {"false", "False", "FALSE"};
    std::string text = ScalarOr(value);
    if (kTrue.count(text) > 0) return true;
    if (kFalse.count(text) > 0) return false;
    throw Error(value, name + " must be true or false");
  }

  // A list of patterns, or one string with a pattern on each line (a ConfigMap value).
  std::vector<std::string> Patterns(const YamlNode& value) const {
    std::vector<std::string> patterns;
    if (value.IsSequence()) {
      for (const YamlNode& entry : value) {
        if (!entry.IsScalar() || entry.Scalar().empty()) {
          throw Error(entry, "runOncePatterns must hold non-empty strings");
        }
        patterns.emplace_back(entry.Scalar());
      }
      return patterns;
    }
    if (!value.IsScalar()) throw Error(value, "runOncePatterns must be a list or a string");
    std::istringstream lines{std::string(value.Scalar())};
    for (std::string line; std::getline(lines, line);) {
      std::string_view pattern = TrimBlanks(line);
      if (!pattern.empty()) patterns.emplace_back(pattern);
    }
    return patterns;
  }

  const Document& doc_;
  FunctionConfig& config_;
};

}  // namespace

FunctionConfig ReadFunctionConfig(const Document& doc, const YamlNode& node) {
  FunctionConfig config;
  if (!node.IsDefined() || node.IsNull()) return config;
  Location where = doc.Locate(node.Mark());
  if (!node.IsMap()) throw InputError(where, "rollcall's function config is not a mapping");
  std::string api_version = ScalarOr(Child(node, "apiVersion"));
  std::string kind = ScalarOr(Child(node, "kind"));
  bool config_map = api_version == "v1" && kind == "ConfigMap";
  if (!config_map && (api_version != kFunctionConfigApiVersion || kind != kFunctionConfigKind)) {
    throw InputError(where, "rollcall's function config must be a " +
                                std::string(kFunctionConfigApiVersion) + " " + kFunctionConfigKind +
                                " or a v1 ConfigMap, not '" + api_version + "' '" + kind + "'");
  }
  OptionReader reader(doc, config);
  for (const auto& entry : node) {
    const std::string key(entry.first.Scalar());
    if (key == "apiVersion" || key == "kind" || key == "metadata") continue;
    if (!config_map) {
      reader.Read(entry.first, entry.second);
    } else if (key != "data") {
      throw InputError(
          doc.Locate(entry.first.Mark()),
          "rollcall reads only the data of a ConfigMap function config, not '" + key + "'");
    } else if (entry.second.IsMap()) {
      for (const auto& option : entry.second) reader.Read(option.first, option.second);
    } else if (!entry.second.IsNull()) {
      throw InputError(doc.Locate(entry.second.Mark()), "the ConfigMap's data is not a mapping");
    }
  }
  return config;
}

}  // namespace rollcall
