#include "rollcall/facts.h"

#include <memory>

#include "parallel.h"
#include "rollcall/annotate.h"
#include "rollcall/field_types.h"
#include "rollcall/markers.h"
#include "rollcall/object_type.h"

namespace rollcall {

namespace {

template <typename T>
std::unique_ptr<T> Own(std::optional<T> found) {
  return found ? std::make_unique<T>(std::move(*found)) : nullptr;
}

// A capture that takes more than this share of its document's text is let go.
constexpr std::size_t kCaptureShare = 4;

// Whether a document's own consumer may let its capture go once its facts are
// read, for render to take it again from the text (CaptureTemplateAgain) at the
// cost of a parse as it writes the output: where it is large beside its
// document's text, as in a stream of small workloads, where it took half each
// one's text again (docs/performance.md), and nothing but the annotation editor
// reads it: no tree is kept (Consumer::pod_template finds the template where the
// capture starts), the template carries none of rollcall's own annotations (the
// rules and the rollout read them from the capture), and, where edits are
// planned, the editor, run now, finds no error in how it is written, which the
// first planning would otherwise have to report before any output.
bool LetsCaptureGo(const Document& doc, const FactOptions& options) {
  const Consumer* consumer = doc.consumer();
  return consumer != nullptr && !KeepsTree(doc, options) &&
         consumer->template_shape.bytes() * kCaptureShare > doc.span().end - doc.span().begin &&
         !consumer->HoldsOwnAnnotations() &&
         (!options.plans_edits || EditsEitherConfigHashChange(doc, consumer->template_shape));
}

}  // namespace

void ReadFacts(Document& doc, const FactOptions& options) {
  DocumentFacts facts;
  std::unique_ptr<Consumer> consumer;
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
  } else {
    facts.source = Own(ExtractSource(doc, options.default_namespace));
    if (!facts.source) {
      consumer = Own(ExtractConsumer(doc, options.default_namespace, options.consumer_kinds));
    }
    facts.rotation = Own(ReadDeclaredRotation(doc, options.default_namespace));
    facts.rbac = Own(ReadRbacFact(doc, options.default_namespace));
  }
  doc.SetFacts(facts.empty() ? nullptr : std::make_unique<DocumentFacts>(std::move(facts)),
               std::move(consumer));
}

bool KeepsTree(const Document& doc, const FactOptions& options) {
  if (options.keep_trees) return true;
  return doc.consumer() != nullptr && doc.consumer()->role == ConsumerRole::kPlainJob;
}

ReadTree FactReader(FactOptions options) {
  return [options = std::move(options)](Document& doc) {
    ReadFacts(doc, options);
    if (LetsCaptureGo(doc, options)) doc.consumer()->template_shape = CapturedShape();
    if (!KeepsTree(doc, options)) doc.DropTree();
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
    // The record keeps has_facts: facts read again (ReadMissingFacts) would define
    // its sources twice.
    if (facts->empty()) doc.SetFacts(nullptr, doc.TakeConsumer());
    if (doc.consumer() || doc.facts() != nullptr) return false;
    // A marker's text is named after the document it sits in (analysis.h's
    // markers), and an annotation may suppress findings on the object.
    return defines && !keep_trees && !doc.has_written_beyond_template() &&
           !MayHoldMarkers(doc.span().Text(doc.stream().bytes()));
  };
}

void ReadMissingFacts(std::vector<Document>& documents, const FactOptions& options) {
  // Each document's facts into it, the error of the first in stream order thrown.
  ParallelForFirstError(documents.size(), [&](std::size_t i) {
    Document& doc = documents[i];
    if (!doc.has_facts() && doc.has_tree()) ReadFacts(doc, options);
  });
}

}  // namespace rollcall
