#include "rollcall/roll/kubectl.h"

#include "rollcall/input_error.h"
#include "rollcall/object_names.h"
#include "rollcall/process.h"

namespace rollcall::roll {
namespace {

// What kubectl prints when the cluster does not serve a resource type.
bool UnknownResourceType(const std::string& error) {
  return error.find("the server doesn't have a resource type") != std::string::npos;
}

void CheckNames(const std::string& kind, const std::string& name_space, const std::string& name,
                const std::string& origin) {
  // Checked here whatever asks: kubectl never sees a name that could read as an option.
  if (!IsNamespaceName(name_space) || (!name.empty() && !IsWorkloadName(kind, name))) {
    throw InputError(Location{origin, 0, 0, 0},
                     "not run: the API server accepts no such name or namespace");
  }
}

InputError Failed(const ProcessOutput& got, const std::string& origin) {
  return {Location{origin, 0, 0, 0}, KubectlFailure(got)};
}

nlohmann::json ParseJson(const std::string& text, const std::string& origin) {
  nlohmann::json parsed = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    throw InputError(Location{origin, 0, 0, 0}, "kubectl printed no JSON object");
  }
  return parsed;
}

}  // namespace

std::vector<std::string> Kubectl::Command(const std::string& verb) const {
  std::vector<std::string> argv = {options_.kubectl, verb};
  if (!options_.context.empty()) argv.push_back("--context=" + options_.context);
  return argv;
}

std::string Kubectl::Run(const std::vector<std::string>& argv, const std::string& origin,
                         const std::optional<std::string>& input) const {
  ProcessOutput got = RunProgram(argv, options_.limits.max_input_bytes, origin, input);
  if (got.exit_code != 0) throw Failed(got, origin);
  return std::move(got.out);
}

std::unique_ptr<Stream> Kubectl::GetAll(const std::string& resources,
                                        const std::optional<std::string>& name_space,
                                        bool absent_ok) const {
  std::vector<std::string> argv = Command("get");
  argv.emplace_back("--output=yaml");
  std::string origin = "kubectl get " + resources;
  if (name_space) {
    origin += " -n " + *name_space;
    CheckNames("", *name_space, "", origin);
    argv.push_back("--namespace=" + *name_space);
  } else {
    origin += " -A";
    argv.emplace_back("--all-namespaces");
  }
  argv.insert(argv.end(), {"--", resources});
  ProcessOutput got = RunProgram(argv, options_.limits.max_input_bytes, origin);
  if (got.exit_code != 0 && absent_ok && UnknownResourceType(got.err)) {
    return std::make_unique<Stream>("", origin);
  }
  if (got.exit_code != 0) throw Failed(got, origin);
  return std::make_unique<Stream>(std::move(got.out), origin, options_.limits.max_documents);
}

std::string Kubectl::Apply(const std::string& manifest, const std::string& name_space) const {
  std::string origin = "kubectl apply -n " + name_space;
  CheckNames("", name_space, "", origin);
  std::vector<std::string> argv = Command("apply");
  argv.insert(argv.end(), {"--namespace=" + name_space, "--filename=-"});
  return Run(argv, origin, manifest);
}

nlohmann::json Kubectl::Patch(const std::string& kind, const std::string& name_space,
                              const std::string& name, const std::string& patch,
                              const std::string& type) const {
  std::string origin = "kubectl patch " + kind + " " + name + " -n " + name_space;
  CheckNames(kind, name_space, name, origin);
  std::vector<std::string> argv = Command("patch");
  argv.insert(argv.end(), {"--namespace=" + name_space, "--type=" + type, "--patch=" + patch,
                           "--output=json", "--", kind, name});
  return ParseJson(Run(argv, origin), origin);
}

nlohmann::json Kubectl::Get(const std::string& resource, const std::string& name_space,
                            const std::string& name) const {
  std::string origin =
      "kubectl get " + resource + (name.empty() ? "" : " " + name) + " -n " + name_space;
  CheckNames("", name_space, name, origin);
  std::vector<std::string> argv = Command("get");
  argv.insert(argv.end(), {"--namespace=" + name_space, "--output=json", "--", resource});
  if (!name.empty()) argv.push_back(name);
  return ParseJson(Run(argv, origin), origin);
}

}  // namespace rollcall::roll
