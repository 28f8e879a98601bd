#include "rollcall/roll/plan.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "rollcall/consumer_kinds.h"
#include "rollcall/consumers.h"
#include "rollcall/input_error.h"
#include "rollcall/object_names.h"

namespace rollcall::roll {
namespace {

// "sha256" of "sha256:…": which kind of hash a template carries.
std::string HashKind(const std::string& hash) { return hash.substr(0, hash.find(':')); }

bool CanRoll(const Consumer& consumer) {
  return consumer.role == ConsumerRole::kWorkload && consumer.kind() != "CronJob" &&
         consumer.kind() != "Pod" && WhatToDoInstead(consumer.kind().str()).empty();
}

struct Reads {
  std::vector<std::string> reads;    // "secret/db[password]"
  std::vector<std::string> changed;  // "secret/db: password"
  bool changed_known = true;
};

// What `consumer` reads of the changed sources, and which of those keys changed.
Reads ReadsOfChanged(const Consumer& consumer, const Model& before, const Model& after,
                     const std::map<SourceId, const ChangedSource*>& changed) {
  Reads out;
  for (const SourceRead& read : ResolveReads(consumer, after, nullptr)) {
    auto found = changed.find(read.source->id);
    if (found == changed.end()) continue;
    out.reads.push_back(DescribeSources({read}));
    std::string slug =
        std::string(SourceKindSlug(read.source->id.kind)) + "/" + read.source->id.name.str();
    const Source* old_source = before.sources.Find(read.source->id);
    if (!found->second->changed_keys || old_source == nullptr) {
      out.changed_known = false;
      continue;
    }
    for (const std::string& key :
         ChangedKeys(read.keys, old_source->entries, read.source->entries)) {
      out.changed.push_back(slug);
      out.changed.back().append(": ").append(key);
    }
  }
  return out;
}

// "secret/db[password]" for each changed source `consumer` names, from its references
// alone: for a source there is no content of.
std::vector<std::string> NamedReads(const Consumer& consumer,
                                    const std::map<SourceId, const ChangedSource*>& changed) {
  // Each changed source as an empty one, so that ResolveReads puts the keys together.
  Model named;
  std::vector<Source> empty;
  empty.reserve(changed.size());
  for (const auto& [id, source] : changed) empty.emplace_back().id = id;
  named.sources.Add(std::move(empty), SourceTable::OnSameId::kReplace);
  std::vector<std::string> out;
  for (const SourceRead& read : ResolveReads(consumer, named, nullptr)) {
    out.push_back(DescribeSources({read}));
  }
  return out;
}

template <typename Changed>
bool ReadsAny(const Consumer& consumer, const Changed& changed) {
  return std::any_of(consumer.references.begin(), consumer.references.end(),
                     [&](const Reference& ref) { return changed.count(ref.source()) > 0; });
}

}  // namespace

std::set<std::string> ChangedKeys(const std::optional<std::set<std::string>>& read,
                                  const SourceEntries& before, const SourceEntries& after) {
  std::set<std::string> candidates;
  if (read) {
    candidates = *read;
  } else {
    for (const auto& [key, value] : before) candidates.emplace(key);
    for (const auto& [key, value] : after) candidates.emplace(key);
  }
  std::set<std::string> changed;
  for (const std::string& key : candidates) {
    auto old_entry = before.find(key);
    auto new_entry = after.find(key);
    bool had = old_entry != before.end();
    bool has = new_entry != after.end();
    if (had != has || (had && old_entry->second != new_entry->second)) changed.insert(key);
  }
  return changed;
}

std::vector<SourceId> SourcesToLookUp(const Model& cluster,
                                      const std::set<const Consumer*>& skipped,
                                      const std::set<SourceId>& changed) {
  std::set<SourceId> wanted;
  for (const Consumer& consumer : cluster.consumers) {
    if (skipped.count(&consumer) > 0 || !ReadsAny(consumer, changed)) continue;
    for (const Reference& ref : consumer.references) {
      const SourceId id = ref.source();
      if (!cluster.sources.Contains(id)) wanted.insert(id);
    }
  }
  return {wanted.begin(), wanted.end()};
}

std::vector<SourceId> NamedInEveryNamespace(const Model& cluster, SourceKind kind,
                                            const std::string& name) {
  std::set<SourceId> found;
  for (const Consumer& consumer : cluster.consumers) {
    for (const Reference& ref : consumer.references) {
      if (ref.source_kind == kind && ref.source_name == name) found.insert(ref.source());
    }
  }
  for (const Source& source : cluster.sources) {
    if (source.id.kind == kind && source.id.name == name) found.insert(source.id);
  }
  return {found.begin(), found.end()};
}

const char* ActionName(Action action) {
  switch (action) {
    case Action::kRoll:
      return "roll";
    case Action::kUnchanged:
      return "unchanged";
    case Action::kNotRolled:
      return "not-rolled";
    case Action::kNextRun:
      return "next-run";
  }
  return "";
}

std::string AnnotationPatch(const Consumer& consumer, const TemplateHash& hash) {
  nlohmann::ordered_json patch = {
      {"metadata",
       {{"annotations",
         {{kConfigHashAnnotation, hash.hash}, {kConfigSourcesAnnotation, hash.sources}}}}}};
  const ConsumerKind* kind = FindConsumerKind(consumer.api_version().str(), consumer.kind().str());
  std::vector<std::string> path = kind ? kind->path : std::vector<std::string>{"spec", "template"};
  for (auto key = path.rbegin(); key != path.rend(); ++key) {
    patch = nlohmann::ordered_json{{*key, std::move(patch)}};
  }
  return patch.dump();
}

RollPlan PlanRoll(const PlanRequest& request) {
  // The sources before the change: the cluster view's, and those looked up for it.
  Model before;
  before.sources = request.cluster->sources;
  before.sources.Add(request.looked_up, SourceTable::OnSameId::kKeepTable);
  RollPlan plan;
  // The model after the change: the sources before, the new contents over them.
  Model after;
  after.sources = before.sources;
  for (const Source& source : request.new_sources) {
    const Source* old_source = before.sources.Find(source.id);
    ChangedSource changed{source.id, std::nullopt};
    if (old_source != nullptr) {
      changed.changed_keys = ChangedKeys(std::nullopt, old_source->entries, source.entries);
    }
    plan.changed.push_back(std::move(changed));
  }
  after.sources.Add(request.new_sources, SourceTable::OnSameId::kReplace);
  for (const SourceId& id : request.named) plan.changed.push_back({id, std::nullopt});
  std::map<SourceId, const ChangedSource*> changed;
  for (const ChangedSource& source : plan.changed) changed.emplace(source.id, &source);

  for (const Consumer& consumer : request.cluster->consumers) {
    if (request.skipped.count(&consumer) > 0 || !ReadsAny(consumer, changed)) continue;
    WorkloadPlan item;
    item.consumer = &consumer;
    Reads reads = ReadsOfChanged(consumer, before, after, changed);
    item.reads = std::move(reads.reads);
    item.changed = std::move(reads.changed);
    item.changed_known = reads.changed_known;
    item.hash_before = WrittenConfigHash(consumer);
    item.hash_after = ComputeTemplateHash(consumer, after, request.hmac_key);
    if (item.reads.empty()) {
      // It names a changed source that is in neither the cluster nor the change: a
      // new pod of it would not find it (or, optional, read nothing from it).
      item.reads = NamedReads(consumer, changed);
      item.action = Action::kNotRolled;
      item.reason =
          "the source it reads is not in the cluster: a new pod would not find it; create it "
          "first";
      plan.workloads.push_back(std::move(item));
      continue;
    }
    if (!item.hash_before.empty() && item.hash_after &&
        HashKind(item.hash_before) != HashKind(item.hash_after->hash)) {
      throw InputError(consumer.Where(),
                       consumer.Describe() + " carries a " + HashKind(item.hash_before) +
                           " config hash and rollcall would write a " +
                           HashKind(item.hash_after->hash) +
                           " one: give roll the --hmac-key-file render was given (or none), "
                           "so that the hashes compare");
    }
    bool affected = false;
    if (item.changed_known && item.changed.empty()) {
      item.reason = "no key it reads changed";
    } else if (!item.hash_before.empty() && item.hash_after &&
               item.hash_before == item.hash_after->hash) {
      item.reason = "its pod template carries the hash of the new content already";
    } else {
      affected = true;
      item.reason = item.changed_known ? "a key it reads changed"
                    : item.hash_before.empty()
                        ? "the old content is unknown and its pod template carries no "
                          "config hash to compare with"
                        : "its config hash differs from the one its pod template carries";
    }
    if (!affected) {
      item.action = Action::kUnchanged;
    } else if (consumer.kind() == "CronJob" && consumer.role == ConsumerRole::kWorkload) {
      item.action = Action::kNextRun;
      item.reason += "; a CronJob has nothing running to roll: its next Job reads the new content";
    } else if (!IsWorkloadName(consumer.kind().view(), consumer.name().view()) ||
               !IsNamespaceName(consumer.name_space.view())) {
      // From a --state file only: no cluster holds such an object, and its name
      // could read as an option on kubectl's command line.
      item.action = Action::kNotRolled;
      item.reason += "; not patched: the API server accepts no such name or namespace";
    } else if (!CanRoll(consumer)) {
      item.action = Action::kNotRolled;
      item.reason += "; " + WhatToDoInstead(consumer.kind().str());
    } else {
      item.action = Action::kRoll;
      item.patch = AnnotationPatch(consumer, *item.hash_after);
      item.patch_type = consumer.api_version().str().find('/') == std::string::npos ||
                                consumer.api_version().view().rfind("apps/", 0) == 0 ||
                                consumer.api_version().view().rfind("batch/", 0) == 0
                            ? "strategic"
                            : "merge";
    }
    plan.workloads.push_back(std::move(item));
  }
  return plan;
}

}  // namespace rollcall::roll
