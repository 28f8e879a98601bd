#include "rollcall/roll/cluster_view.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "rollcall/document.h"
#include "rollcall/input_error.h"
#include "rollcall/limits.h"
#include "rollcall/model.h"

namespace rollcall::roll {
namespace {

using ObjectKey = std::tuple<std::string, std::string, std::string>;  // kind, namespace, name

// A Job whose Complete or Failed condition is true: none of its pods runs again.
bool Finished(const YamlNode& object) {
  YamlNode conditions = Child(Child(object, "status"), "conditions");
  if (!conditions.IsSequence()) return false;
  return std::any_of(conditions.begin(), conditions.end(), [](const YamlNode& condition) {
    std::string type = ScalarOr(Child(condition, "type"));
    return (type == "Complete" || type == "Failed") &&
           ScalarOr(Child(condition, "status")) == "True";
  });
}

// Notes `object` when it is a Job that finished.
void NoteSkipped(const YamlNode& object, const std::string& default_namespace,
                 std::set<ObjectKey>& skipped) {
  if (!object.IsMap()) return;
  std::string kind = ScalarOr(Child(object, "kind"));
  if (kind != "Job" || !Finished(object)) return;
  YamlNode metadata = Child(object, "metadata");
  std::string name_space = ScalarOr(Child(metadata, "namespace"), default_namespace);
  skipped.emplace(kind, name_space, ScalarOr(Child(metadata, "name")));
}

}  // namespace

ClusterView ReadClusterView(std::vector<std::unique_ptr<Stream>> streams, AnalysisOptions options,
                            const Limits& limits) {
  ClusterView view;
  std::vector<Document> documents;
  std::set<ObjectKey> skipped;
  for (const std::unique_ptr<Stream>& stream : streams) {
    // kubectl's Lists, or dumps of them given as --state.
    for (Document& doc : ParseStream(*stream, ListOutputLimits(limits))) {
      if (doc.shape() == Document::Shape::kObject) {
        NoteSkipped(doc.root(), options.default_namespace, skipped);
        YamlNode items = Child(doc.root(), "items");
        if (items.IsSequence()) {
          for (const YamlNode& item : items) {
            NoteSkipped(item, options.default_namespace, skipped);
          }
        }
      }
      documents.push_back(std::move(doc));
    }
  }
  view.streams = std::move(streams);
  view.analysis = std::make_unique<Analysis>(std::move(documents), std::move(options));
  // kubectl lists each object once; two listings (two --state files that overlap)
  // would be planned, and patched, twice, and need not agree on what runs.
  std::map<ObjectKey, const Consumer*> listed;
  for (const Consumer& consumer : view.analysis->model().consumers) {
    const ObjectKey key{consumer.kind().str(), consumer.name_space.str(), consumer.name().str()};
    const auto [first, inserted] = listed.emplace(key, &consumer);
    if (!inserted) {
      throw InputError(consumer.Where(),
                       "the cluster's state lists " + consumer.Describe() + " twice (first at " +
                           first->second->Where().Describe() + "); give each object once");
    }
  }
  for (const Consumer& consumer : view.analysis->model().consumers) {
    // A Pod its controller owns rolls with the controller (ConsumerRole::kOwnedPod).
    if (consumer.role == ConsumerRole::kOwnedPod ||
        skipped.count({consumer.kind().str(), consumer.name_space.str(), consumer.name().str()}) >
            0) {
      view.skipped.insert(&consumer);
    }
  }
  return view;
}

}  // namespace rollcall::roll
