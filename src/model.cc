#include "rollcall/model.h"

#include "parallel.h"

namespace rollcall {

Model BuildModel(const std::vector<Document>& documents, const std::string& default_namespace,
                 const std::vector<ConsumerKind>& extra_kinds) {
  // Reading each document is independent work, done on all hardware threads;
  // the merge below keeps stream order.
  struct Facts {
    std::optional<Source> source;
    std::optional<Consumer> consumer;
  };
  std::vector<Facts> facts = ParallelMap<Facts>(documents.size(), [&](std::size_t i) {
    Facts found{ExtractSource(documents[i], default_namespace), std::nullopt};
    if (!found.source)
      found.consumer = ExtractConsumer(documents[i], default_namespace, extra_kinds);
    return found;
  });
  Model model;
  for (Facts& found : facts) {
    if (std::optional<Source>& source = found.source) {
      SourceId id = source->id;
      auto earlier = model.sources.find(id);
      if (earlier != model.sources.end()) {
        model.findings.push_back(
            Finding{"duplicate-source", Severity::kWarning, source->where, id.Describe(), "",
                    id.Describe() + " is defined again (first at line " +
                        std::to_string(earlier->second.where.line) +
                        "); the last definition is the one applied, and the one hashed"});
      }
      model.sources.insert_or_assign(std::move(id), std::move(*source));
    } else if (found.consumer) {
      model.consumers.push_back(std::move(*found.consumer));
    }
  }
  return model;
}

std::vector<SourceRead> ResolveReads(const Consumer& consumer, const Model& model,
                                     std::vector<const Reference*>* unresolved) {
  std::map<SourceId, SourceRead> reads;
  for (const Reference& ref : consumer.references) {
    auto found = model.sources.find(ref.source);
    if (found == model.sources.end()) {
      if (unresolved != nullptr) unresolved->push_back(&ref);
      continue;
    }
    auto [it, inserted] = reads.try_emplace(ref.source, SourceRead{&found->second, ref.keys});
    SourceRead& read = it->second;
    if (inserted || !read.keys) continue;
    if (!ref.keys) {
      read.keys.reset();  // one reference reads every key: so does the consumer
    } else {
      read.keys->insert(ref.keys->begin(), ref.keys->end());
    }
  }
  std::vector<SourceRead> out;
  out.reserve(reads.size());
  for (auto& [id, read] : reads) out.push_back(std::move(read));
  return out;
}

}  // namespace rollcall
