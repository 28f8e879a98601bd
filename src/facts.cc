#include "rollcall/facts.h"

#include <memory>

#include "parallel.h"
#include "rollcall/field_types.h"
#include "rollcall/markers.h"

namespace rollcall {

namespace {

template <typename T>
std::unique_ptr<T> Own(std::optional<T> found) {
  return found ? std::make_unique<T>(std::move(*found)) : nullptr;
}

}  // namespace

DocumentFacts ReadFacts(const Document& doc, const FactOptions& options) {
  DocumentFacts facts;
  if (IsList(doc)) {
    // kubectl decodes every item as an object of its own.
    YamlNode items = ListField(doc, Child(doc.root(), "items"), "items");
    if (items.IsDefined()) {
      for (const auto& item : items) CheckListItem(doc, item);
    }
    std::vector<Source> listed = ExtractStateSources(doc, options.default_namespace);
    if (!listed.empty())
      facts.listed_sources = std::make_unique<std::vector<Source>>(std::move(listed));
    std::vector<Consumer> consumers =
        ExtractListedConsumers(doc, options.default_namespace, options.consumer_kinds);
    if (!consumers.empty())
      facts.listed_consumers = std::make_unique<std::vector<Consumer>>(std::move(consumers));
    return facts;
  }
  facts.source = Own(ExtractSource(doc, options.default_namespace));
  if (!facts.source) {
    facts.consumer = Own(ExtractConsumer(doc, options.default_namespace, options.consumer_kinds));
  }
  facts.rotation = Own(ReadDeclaredRotation(doc, options.default_namespace));
  return facts;
}

bool KeepsTree(const Document& doc, const FactOptions& options) {
  if (options.keep_trees) return true;
  const DocumentFacts* facts = doc.facts();
  return facts != nullptr && facts->consumer && facts->consumer->role == ConsumerRole::kPlainJob;
}

ReadTree FactReader(FactOptions options) {
  return [options = std::move(options)](Document& doc) {
    doc.SetFacts(std::make_unique<DocumentFacts>(ReadFacts(doc, options)));
    if (KeepsTree(doc, options)) return;
    // The template's handle holds the whole tree's memory.
    if (const std::unique_ptr<Consumer>& consumer = doc.facts()->consumer) {
      consumer->DropPodTemplate();
    }
    if (const auto& listed = doc.facts()->listed_consumers) {
      for (Consumer& consumer : *listed) consumer.DropPodTemplate();
    }
    doc.DropTree();
  };
}

TakeRecord SourceTaker(SourceDefinitions* definitions, const FactOptions& options) {
  return [definitions, keep_trees = options.keep_trees](Document& doc) {
    DocumentFacts* facts = doc.facts();
    if (facts == nullptr) return false;
    auto take = [&](Source& source) {
      source.DefinedIn(doc);
      definitions->push_back(std::move(source));
    };
    const bool defines = facts->source != nullptr;
    if (defines) take(*facts->source);
    facts->source.reset();
    if (facts->listed_sources) {
      for (Source& source : *facts->listed_sources) take(source);
      facts->listed_sources.reset();
    }
    // The facts stay, emptied, with the record: facts read again (ReadMissingFacts)
    // would define its sources twice.
    if (facts->consumer || facts->listed_consumers || facts->rotation) return false;
    // A marker's text is named after the document it sits in (analysis.h's
    // markers), and an annotation may suppress findings on the object.
    return defines && !keep_trees && !doc.has_written_beyond_template() &&
           !MayHoldMarkers(doc.span().Text(doc.stream().bytes()));
  };
}

void ReadMissingFacts(std::vector<Document>& documents, const FactOptions& options) {
  // ParallelMap, for the error of the first document in stream order.
  std::vector<std::unique_ptr<DocumentFacts>> read =
      ParallelMap<std::unique_ptr<DocumentFacts>>(documents.size(), [&](std::size_t i) {
        const Document& doc = documents[i];
        if (doc.facts() != nullptr || !doc.has_tree()) return std::unique_ptr<DocumentFacts>();
        return std::make_unique<DocumentFacts>(ReadFacts(doc, options));
      });
  for (std::size_t i = 0; i < documents.size(); ++i) {
    if (read[i]) documents[i].SetFacts(std::move(read[i]));
  }
}

}  // namespace rollcall
