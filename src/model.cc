#include "rollcall/model.h"

#include "rollcall/facts.h"

namespace rollcall {

Model BuildModel(std::vector<Document>& documents, SourceDefinitions definitions,
                 const std::string& default_namespace,
                 const std::vector<ConsumerKind>& extra_kinds) {
  FactOptions options;
  options.default_namespace = default_namespace;
  options.consumer_kinds = extra_kinds;
  ReadMissingFacts(documents, options);
  Model model;
  std::size_t consumers = 0;
  for (const Document& doc : documents) {
    consumers += doc.consumer() != nullptr ? 1 : 0;
    const DocumentFacts* facts = doc.facts();
    consumers += facts != nullptr && facts->listed_consumers ? facts->listed_consumers->size() : 0;
  }
  model.consumers.reserve(consumers);  // kept for the whole run: no spare capacity
  for (Document& doc : documents) {
    if (doc.consumer() != nullptr) model.consumers.push_back(doc.TakeConsumer()).document = &doc;
    DocumentFacts* found = doc.facts();
    if (found == nullptr) {
      doc.ClearFacts();
      continue;
    }
    auto define = [&](Source& source) {
      source.DefinedIn(doc);
      definitions.push_back(std::move(source));
    };
    if (const std::unique_ptr<Source>& source = found->source) define(*source);
    if (found->listed_sources) {
      for (Source& source : *found->listed_sources) define(source);
      found->listed_sources.reset();
    }
    if (found->listed_consumers) {
      for (Consumer& listed : *found->listed_consumers) {
        model.consumers.push_back(std::make_unique<Consumer>(std::move(listed))).document = &doc;
      }
      found->listed_consumers.reset();
    }
    // Moved into the model: one copy of each, however large the stream.
    found->source.reset();
    // The rotations and Secret writes stay for RuntimeSources and SecretWriters.
    if (!found->rotation && !found->rbac) doc.ClearFacts();
  }
  model.sources = SourceTable::OfDefinitions(
      std::move(definitions), [&](const Source& again, const Source& before) {
        model.findings.push_back(
            Finding{"duplicate-source", Severity::kWarning, again.Where(), again.id.Describe(), "",
                    again.id.Describe() + " is defined again (first at line " +
                        std::to_string(before.Where().line) +
                        "); the last definition is the one applied, and the one hashed",
                    ""});
      });
  return model;
}

std::vector<SourceRead> ResolveReads(const Consumer& consumer, const Model& model,
                                     std::vector<const Reference*>* unresolved) {
  std::map<SourceId, SourceRead> reads;
  for (const Reference& ref : consumer.references) {
    const Source* found = model.sources.Find(ref.source());
    if (found == nullptr) {
      if (unresolved != nullptr) unresolved->push_back(&ref);
      continue;
    }
    auto [it, inserted] = reads.try_emplace(ref.source(), SourceRead{found, {}});
    SourceRead& read = it->second;
    if (inserted) {
      if (ref.keys) read.keys.emplace(ref.keys->begin(), ref.keys->end());
      continue;
    }
    if (!read.keys) continue;
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
