// What the analysis reads of a document's tree: the Secret or ConfigMap it
// defines, the pod template that reads them, the rotation it declares, the Secret
// writes it grants. Read right
// after the document's parse, on the thread that parsed it, so that the tree can
// go at once: trees take several times their text, and a large stream's trees
// kept until the end were most of render's memory and a good part of its time
// (docs/performance.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rollcall/consumer_kinds.h"
#include "rollcall/document.h"
#include "rollcall/model.h"
#include "rollcall/runtime_sources.h"
#include "rollcall/secret_writers.h"

namespace rollcall {

// Each is null when the document has none: a stream's facts stay as small as what
// they hold. A document's own consumer is held by the document (Document::consumer),
// its `document` set when the model is built.
struct DocumentFacts {
  std::unique_ptr<Source> source;
  std::unique_ptr<std::vector<Source>> listed_sources;      // the Secrets and ConfigMaps of a List
  std::unique_ptr<std::vector<Consumer>> listed_consumers;  // the workloads of a List
  std::unique_ptr<DeclaredRotation> rotation;
  std::unique_ptr<RbacFact> rbac;  // a Role or binding that lets write Secrets

  bool empty() const {
    return !source && !listed_sources && !listed_consumers && !rotation && !rbac;
  }
};

struct FactOptions {
  std::string default_namespace = "default";
  std::vector<ConsumerKind> consumer_kinds;  // beyond the built-in ones
  // Keep every tree: a previous release is compared object by object.
  bool keep_trees = false;
  // Edits are planned from the pod templates' captures (render): a capture is let
  // go only where the edits it gives have been checked (facts.cc).
  bool plans_edits = false;
};

// Reads the facts of one parsed document into it (Document::SetFacts). Throws
// InputError as ExtractSource does.
void ReadFacts(Document& doc, const FactOptions& options);

// Whether anything after the facts reads this document's tree: every document
// when a previous release is compared, and a plain Job, which is renamed after its
// whole pod template.
bool KeepsTree(const Document& doc, const FactOptions& options);

// A ParseStream reader that reads each document's facts and drops its tree unless
// KeepsTree.
ReadTree FactReader(FactOptions options);

// A ParseStream taker (document.h's TakeRecord) for records read by a FactReader:
// moves the Secrets and ConfigMaps out of each document's facts into
// `definitions`, in stream order, which the model is built from (BuildModel), and
// leaves out the record of a document that defines one and that nothing else
// reads: neither a consumer nor a rotation, no annotation but Helm 4's template
// annotation, no key written twice, no marker's text, no List, no previous release
// to compare it with. A stream of a million small ConfigMaps kept a record of 80
// bytes for each (docs/performance.md).
TakeRecord SourceTaker(SourceDefinitions* definitions, const FactOptions& options);

// Reads the facts of documents parsed without a FactReader (every tree kept), on
// every usable CPU.
void ReadMissingFacts(std::vector<Document>& documents, const FactOptions& options);

}  // namespace rollcall
