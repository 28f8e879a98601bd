#include "rollcall/jobs.h"

#include <algorithm>
#include <cstdint>
#include <map>

#include "rollcall/hashing.h"
#include "rollcall/input_error.h"

namespace rollcall {
namespace {

constexpr std::size_t kMaxJobName = 63;

void PutField(std::string& out, char tag, std::string_view bytes) {
  out.push_back(tag);
  std::uint64_t size = bytes.size();
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>(size >> shift));
  out.append(bytes);
}

bool IsRollcallKey(const std::string& key) { return key.rfind("rollcall.dev/", 0) == 0; }

const std::string& EmptyMap() {
  static const std::string empty = [] {
    std::string out;
    PutField(out, 'M', "0");
    return out;
  }();
  return empty;
}

// Where a node sits in a pod template, for leaving rollcall's annotations out.
enum class Place { kTemplate, kMetadata, kAnnotations, kElsewhere };

Place Below(Place place, const std::string& key) {
  if (place == Place::kTemplate && key == "metadata") return Place::kMetadata;
  if (place == Place::kMetadata && key == "annotations") return Place::kAnnotations;
  return Place::kElsewhere;
}

// A canonical encoding of a node: mappings sorted by key (the last duplicate wins),
// sequences in order, scalars with whether they were quoted. Around rollcall's own
// annotations, an empty or null `metadata` or `annotations` counts as absent, so
// the template reads the same before and after render added them.
void Encode(const YamlNode& node, Place place, std::string& out) {
  if (node.IsMap()) {
    std::map<std::string, std::string> entries;
    for (const auto& entry : node) {
      std::string key(entry.first.Scalar());  // "" for anything but a scalar
      if (place == Place::kAnnotations && IsRollcallKey(key)) {
        entries.erase(key);
        continue;
      }
      std::string value;
      Encode(entry.second, Below(place, key), value);
      bool around_annotations = place == Place::kTemplate || place == Place::kMetadata;
      if (around_annotations && (value == EmptyMap() || entry.second.IsNull())) {
        entries.erase(key);
        continue;
      }
      entries[key] = std::move(value);
    }
    PutField(out, 'M', std::to_string(entries.size()));
    for (const auto& [key, value] : entries) {
      PutField(out, 'K', key);
      out += value;
    }
  } else if (node.IsSequence()) {
    PutField(out, 'S', std::to_string(node.size()));
    for (const auto& item : node) Encode(item, Place::kElsewhere, out);
  } else if (node.IsScalar()) {
    PutField(out, node.Tag() == "!" ? 'Q' : 'V', node.Scalar());
  } else {
    PutField(out, 'N', "");
  }
}

}  // namespace

std::optional<JobPolicy> ParseJobPolicy(std::string_view text) {
  if (text == "rename") return JobPolicy::kRename;
  if (text == "keep") return JobPolicy::kKeep;
  return std::nullopt;
}

const char* JobPolicyName(JobPolicy policy) {
  return policy == JobPolicy::kRename ? "rename" : "keep";
}

JobAction DecideJobAction(const Consumer& job, const JobOptions& options,
                          NamePatterns& run_once_patterns) {
  const WrittenValue* run_once = job.document->Annotation(kRunOnceAnnotation);
  if (run_once != nullptr && run_once->text == "true") return JobAction::kRunOnce;
  if (run_once_patterns.Matches(job.name().str())) return JobAction::kRunOnce;
  JobPolicy policy = options.policy;
  if (const WrittenValue* written = job.document->Annotation(kJobPolicyAnnotation)) {
    std::optional<JobPolicy> parsed = ParseJobPolicy(written->text);
    if (!parsed) {
      throw InputError(job.document->LocateAt(written->pos),
                       job.Describe() + ": " + kJobPolicyAnnotation +
                           R"( must be "rename" or "keep", not ")" + written->text + "\"");
    }
    policy = *parsed;
  }
  return policy == JobPolicy::kRename ? JobAction::kRename : JobAction::kKeep;
}

std::string TemplateFingerprint(const YamlNode& pod_template, const std::string& config_hash) {
  std::string encoding;
  PutField(encoding, 'H', config_hash);
  Encode(pod_template, Place::kTemplate, encoding);
  return Sha256Hex(encoding);
}

std::string JobTemplateDigest(const YamlNode& pod_template, const std::string& config_hash) {
  return TemplateFingerprint(pod_template, config_hash).substr(0, 8);
}

std::string RecordedJobName(const Document& job, const std::string& fallback) {
  const WrittenValue* recorded = job.Annotation(kJobNameAnnotation);
  return recorded != nullptr && recorded->scalar ? recorded->text : fallback;
}

std::string RenamedJobName(const std::string& base, const std::string& digest) {
  std::string kept = base.substr(0, std::min(base.size(), kMaxJobName - digest.size() - 1));
  while (!kept.empty() && (kept.back() == '-' || kept.back() == '.')) kept.pop_back();
  return kept + "-" + digest;
}

}  // namespace rollcall
