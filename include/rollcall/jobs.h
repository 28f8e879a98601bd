// What render does with a plain Job (one no tool recreates): its spec.template is
// immutable, so annotating it in place would turn every Secret change into
// "field is immutable" on upgrade. By default the Job is renamed after its
// template instead, so a changed template is a new Job and an unchanged one keeps
// its name. Run-once Jobs (bootstrap Jobs holding a one-time token) are never
// renamed.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rollcall/model.h"
#include "rollcall/name_patterns.h"
#include "rollcall/yaml_tree.h"

namespace rollcall {

inline constexpr const char* kJobPolicyAnnotation = "rollcall.dev/job-policy";
inline constexpr const char* kRunOnceAnnotation = "rollcall.dev/run-once";
// On a renamed Job: the name it had before, so that rendering again is stable.
inline constexpr const char* kJobNameAnnotation = "rollcall.dev/job-name";

enum class JobPolicy { kRename, kKeep };
std::optional<JobPolicy> ParseJobPolicy(std::string_view text);  // "rename", "keep"
const char* JobPolicyName(JobPolicy policy);

struct JobOptions {
  JobPolicy policy = JobPolicy::kRename;       // --job-policy
  std::vector<std::string> run_once_patterns;  // RE2, from .rollcall.yaml and --run-once-pattern
};

// Decides a plain Job's action: run-once (annotation rollcall.dev/run-once: "true"
// or a name matching one of `run_once_patterns`, options.run_once_patterns
// compiled), else the policy of its rollcall.dev/job-policy annotation, else the
// default. Throws InputError on an unknown policy value.
JobAction DecideJobAction(const Consumer& job, const JobOptions& options,
                          NamePatterns& run_once_patterns);

// Lowercase hex SHA-256 over a pod template's canonical tree (key order, quoting
// style and rollcall's own annotations do not count) and a config hash: equal
// fingerprints mean the same pod template.
std::string TemplateFingerprint(const YamlNode& pod_template, const std::string& config_hash);

// 8 lowercase hex digits naming a pod template: SHA-256 over its canonical tree
// (key order, quoting style and rollcall's own annotations do not count) and the
// config hash it will carry.
std::string JobTemplateDigest(const YamlNode& pod_template, const std::string& config_hash);

// The name a renamed Job had before (its rollcall.dev/job-name), else `fallback`.
std::string RecordedJobName(const Document& job, const std::string& fallback);

// "<base>-<digest>", with `base` shortened (and stripped of trailing '-' and '.')
// so the result stays within 63 characters, the limit of a Job's name label.
std::string RenamedJobName(const std::string& base, const std::string& digest);

}  // namespace rollcall
