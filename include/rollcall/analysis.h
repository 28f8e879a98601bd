// The analysis shared by render, lint and consumers: the model of every input,
// the markers found in the text, runtime-rotated sources, suppressions, and the
// coverage state of each reference. The rule checks read only this.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rollcall/config.h"
#include "rollcall/coverage.h"
#include "rollcall/document.h"
#include "rollcall/facts.h"
#include "rollcall/jobs.h"
#include "rollcall/kind_scan.h"
#include "rollcall/lookup.h"
#include "rollcall/markers.h"
#include "rollcall/model.h"
#include "rollcall/previous/release.h"
#include "rollcall/reference_coverage.h"
#include "rollcall/runtime_sources.h"
#include "rollcall/secret_writers.h"
#include "rollcall/state.h"

namespace rollcall {

// The annotation that suppresses findings on an object: "<rule-id>: <reason>; …".
inline constexpr const char* kIgnoreAnnotation = "rollcall.dev/ignore";

struct AnalysisOptions {
  std::string default_namespace = "default";
  Config config;
  JobOptions jobs;  // run-once patterns from the config are added to these
  // Sources from --state files; a source in the input wins over them.
  std::vector<Source> state;
  // The words of the state files' hooks that may name a Secret they create.
  std::vector<StateHookWord> state_hook_words;
  // Looks up the sources still unresolved after the input and the state
  // (--lookup kubectl); empty: no lookup.
  SourceLookup lookup;
  // The release being upgraded (--previous), or null: a first install, or unknown.
  const PreviousRelease* previous = nullptr;
  // Markers found in files that could not be parsed (chart templates): they bind to
  // nothing but are still reported.
  std::vector<Marker> loose_markers;
};

// A suppression read from rollcall.dev/ignore, or a malformed one.
struct Suppression {
  std::string rule;
  std::string reason;
  std::string problem;  // non-empty when malformed
  Location where;
};

class Analysis {
 public:
  // `documents` are every parsed document of every input, `counted` the values-like
  // documents ParseStream counted rather than recorded, one entry per input that has
  // some, and `definitions` the sources a SourceTaker took from the documents while
  // they were parsed (facts.h); their streams must outlive the analysis.
  Analysis(std::vector<Document> documents, AnalysisOptions options,
           std::vector<CountedNotObjects> counted = {}, SourceDefinitions definitions = {});
  ~Analysis();
  Analysis(const Analysis&) = delete;
  Analysis& operator=(const Analysis&) = delete;

  const AnalysisOptions& options() const { return options_; }
  const std::vector<Document>& documents() const { return documents_; }
  const std::vector<CountedNotObjects>& counted_not_objects() const { return counted_; }
  const Model& model() const { return model_; }
  const RuntimeSources& runtime() const { return runtime_; }
  const CoverageRecords& coverage() const { return coverage_; }
  CoverageSummary Summary() const;
  // Frees the coverage records: render reads them only for its rules and summary,
  // and a large stream's records would otherwise sit beside the edits it plans
  // (docs/performance.md). coverage() is empty after.
  void ReleaseCoverage() { coverage_ = CoverageRecords(); }

  // Every marker: in comments of parsed streams, in rollcall.dev/secret-version
  // annotations, and loose ones from unparsed files.
  const std::deque<Marker>& markers() const { return markers_; }
  bool IsBound(const Marker& marker) const;

  // The same object in the previous release, or null.
  const Document* PreviousOf(const Document& doc) const;
  // A run-once Job that the previous release already has: it ran, and is dropped.
  bool AlreadyRan(const Consumer& consumer) const;

  // What a tolerated lookup failure said (--lookup-optional).
  const std::vector<Finding>& lookup_findings() const { return lookup_findings_; }

  // Suppressions by object ("Deployment ns/name").
  const std::map<std::string, std::vector<Suppression>>& suppressions() const {
    return suppressions_;
  }

 private:
  void LookUpUnresolved();
  void ScanStreamMarkers();
  void ReadSuppressions();
  const Marker* AnnotationMarker(const Consumer& consumer);
  const Marker* LineMarker(const Consumer& consumer, const Reference& reference);
  // `annotation_marker`: the consumer's annotation marker (one per consumer, shared
  // by its references), once a reference has read it.
  ReferenceCoverage Cover(const Consumer& consumer, const Reference& reference,
                          std::optional<const Marker*>& annotation_marker);
  // Cover's part for a source whose content is not known.
  void CoverUnknown(const Consumer& consumer, const Reference& reference,
                    ReferenceCoverage& out) const;
  // The rotation of an optional Secret its reader may create and update itself (its
  // ServiceAccount's RBAC in the input), or null.
  const Rotation* SelfManaged(const Consumer& consumer, const Reference& reference) const;

  AnalysisOptions options_;
  std::vector<Document> documents_;
  std::vector<CountedNotObjects> counted_;
  Model model_;
  RuntimeSources runtime_;
  SecretWriters secret_writers_;  // declared after documents_: built from their facts
  std::deque<Marker> markers_;    // a deque: coverage keeps pointers into it
  std::map<const Marker*, bool> bound_;
  // (stream, line) → markers on that line
  std::map<std::pair<const Stream*, std::size_t>, std::vector<const Marker*>> by_line_;
  std::map<std::string, std::vector<Suppression>> suppressions_;
  CoverageRecords coverage_;
  std::vector<Finding> lookup_findings_;
  std::set<SourceId> missing_in_cluster_;  // looked up, and not there
  std::set<SourceId> invalid_names_;       // not looked up: the API server refuses the name
  // (namespace, Secret name) → the hook that names it as what it creates.
  // (namespace, Secret name) → the hook that may create it, described ("Job ns/name"):
  // the input's hooks first, then the state files'.
  std::map<std::pair<std::string, std::string>, std::string> generated_;
};

// Whether the analysis reads a document of this type and text, and so needs its
// tree: sources, consumers, objects that declare a rotation, every object
// when a previous release is compared, and any object that carries a rollcall.dev/
// annotation or a SECRET-VERSION marker. Render parses only these
// (docs/performance.md).
bool AnalysisReads(const AnalysisOptions& options, const TypeHeader& type, std::string_view text);

// How documents' facts are read for an analysis with `options` (facts.h): its
// namespace and consumer kinds, and every tree kept when a previous release is
// compared.
FactOptions FactOptionsFor(const AnalysisOptions& options);

// "secret/db[password] via env in container app"
std::string DescribeReference(const Reference& reference);

// "Deployment ns/name": how findings and suppressions name an object.
std::string ObjectName(const Document& doc, const std::string& default_namespace);

}  // namespace rollcall
