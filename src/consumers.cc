#include "rollcall/consumers.h"

#include <algorithm>
#include <cctype>

#include "rollcall/object_names.h"
#include "rollcall/printable.h"
#include "rollcall/shell_word.h"

namespace rollcall {
namespace {

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string Keys(const Reference& reference) {
  if (!reference.keys) return "";
  std::string keys;
  for (const Name& key : *reference.keys) keys += (keys.empty() ? "" : ",") + key;
  return keys;
}

std::string Reads(const Consumer& consumer, const Reference& reference) {
  std::string keys = Keys(reference);
  switch (reference.via) {
    case ReadVia::kEnv:
      return "env " + keys;
    case ReadVia::kEnvFrom:
      return "envFrom";
    case ReadVia::kVolume:
    case ReadVia::kProjected: {
      std::vector<VolumeMount> mounts = consumer.Mounts(reference);
      bool sub_path = std::any_of(mounts.begin(), mounts.end(),
                                  [](const VolumeMount& mount) { return mount.sub_path; });
      std::string how = std::string(sub_path ? "subPath " : "") +
                        (reference.via == ReadVia::kProjected ? "projected volume " : "volume ") +
                        reference.volume();
      return keys.empty() ? how : how + " [" + keys + "]";
    }
  }
  return "?";
}

std::string Containers(const Consumer& consumer, const Reference& reference) {
  if (!reference.container().empty()) return reference.container();
  std::string names;
  for (const VolumeMount& mount : consumer.Mounts(reference)) {
    if (names.find(mount.container) == std::string::npos) {
      names += (names.empty() ? "" : ",") + mount.container;
    }
  }
  return names.empty() ? "-" : names;
}

}  // namespace

std::vector<ConsumerUse> FindConsumers(const Analysis& analysis, const SourceQuery& query) {
  std::vector<ConsumerUse> uses;
  for (const ReferenceCoverage& coverage : analysis.coverage()) {
    const SourceId& source = coverage.reference->source();
    if (query.kind && source.kind != *query.kind) continue;
    if (query.name && source.name != *query.name) continue;
    if (query.name_space && source.name_space != *query.name_space) continue;
    const Consumer& consumer = *coverage.consumer;
    uses.push_back(ConsumerUse{coverage, ObjectPath(consumer),
                               Containers(consumer, *coverage.reference),
                               Reads(consumer, *coverage.reference)});
  }
  return uses;
}

std::string FormatConsumerUse(const ConsumerUse& use) {
  const ReferenceCoverage& coverage = use.coverage;
  std::string out = use.object + " container " + use.container + " reads " + use.reads + ": " +
                    CoverageName(coverage.state);
  out += " (" + coverage.Reason() + ")";
  return out;
}

std::string ObjectPath(const Consumer& consumer) {
  return Lower(consumer.kind()) + "/" + consumer.name_space.str() + "/" + consumer.name().str();
}

std::string WhatToDoInstead(const std::string& kind) {
  if (kind == "Deployment" || kind == "StatefulSet" || kind == "DaemonSet" || kind == "Rollout") {
    return "";
  }
  if (kind == "CronJob") return "nothing to restart; its next run reads the new value";
  if (kind == "Job") {
    return "a Job cannot be restarted; if it must run with the new value, delete it and create "
           "it again";
  }
  if (kind == "Pod") return "a bare Pod cannot be restarted; delete it and create it again";
  return "no restart verb; delete its pods so its controller recreates them";
}

std::string RestartCommand(const Consumer& consumer) {
  const std::string kind = Lower(consumer.kind());
  const std::string& name = consumer.name().str();
  const std::string& ns = consumer.name_space.str();
  // A comment: Printable, so that no line break or escape in a name can end it and
  // start a command, nor drive the terminal.
  auto comment = [&](const std::string& what) {
    return "# " + Printable(kind + "/" + name + " -n " + ns + ": " + what);
  };
  // Names the API server would refuse are never printed as commands: such an
  // object cannot exist in a cluster, and its name could be shell code.
  if (!IsWorkloadName(consumer.kind().str(), name) || !IsNamespaceName(ns)) {
    return comment(
        "not printed as a command: the API server accepts no such name or namespace, so no "
        "cluster holds this object");
  }
  const std::string target = ShellWord(kind + "/" + name);
  const std::string in_namespace = " -n " + ShellWord(ns);
  if (consumer.kind() == "Rollout") {
    return "kubectl argo rollouts restart " + ShellWord(name) + in_namespace;
  }
  std::string instead = WhatToDoInstead(consumer.kind().str());
  if (instead.empty()) return "kubectl rollout restart " + target + in_namespace;
  return comment(instead);
}

}  // namespace rollcall
