#include "rollcall/analysis.h"

#include <algorithm>
#include <set>

#include "rollcall/object_names.h"
#include "rollcall/object_type.h"
#include "rollcall/rules.h"
#include "rollcall/state.h"
#include "rollcall/yaml_text.h"

namespace rollcall {
namespace {

// A volume whose every mount sees updates: the kubelet refreshes a Secret or
// ConfigMap volume in place, but never a subPath mount.
bool Reloadable(const Consumer& consumer, const Reference& reference) {
  if (reference.via != ReadVia::kVolume && reference.via != ReadVia::kProjected) return false;
  const std::vector<VolumeMount> mounts = consumer.Mounts(reference);
  return std::none_of(mounts.begin(), mounts.end(),
                      [](const VolumeMount& mount) { return mount.sub_path; });
}

}  // namespace

// A `List` kind, a block document with a top-level `items:` key, or a flow (JSON)
// document that mentions items.
bool MayBeList(const TypeHeader& type, std::string_view text) {
  if (IsListKind(type.kind)) return true;
  if (text.rfind("items:", 0) == 0 || text.find("\nitems:") != std::string_view::npos) return true;
  std::size_t first = text.find_first_not_of(" \t\r\n");
  while (first != std::string_view::npos && text.compare(first, 3, "---") == 0) {
    first = text.find_first_not_of(" \t\r\n", text.find('\n', first));
  }
  return first != std::string_view::npos && text[first] == '{' &&
         text.find("items") != std::string_view::npos;
}

bool AnalysisReads(const AnalysisOptions& options, const TypeHeader& type, std::string_view text) {
  // The previous release is compared object by object, whatever the kind.
  if (options.previous != nullptr) return true;
  if (type.kind == SourceKindName(SourceKind::kSecret) ||
      type.kind == SourceKindName(SourceKind::kConfigMap) ||
      FindConsumerKind(type.api_version, type.kind, options.config.consumer_kinds) != nullptr ||
      MayDeclareRotation(type.api_version, type.kind) ||
      MayGrantSecretWrites(type.api_version, type.kind)) {
    return true;
  }
  // A List (any object with a top-level `items`, as kubectl reads it) may hold
  // Secrets. Checked on the text, not to parse every CRD whose schema has items.
  if (MayBeList(type, text)) return true;
  // Suppressions (rollcall.dev/ignore) apply to any object; a marker in a comment is
  // named after its document's origin, which a Helm 4 annotation may give.
  return text.find("rollcall.dev/") != std::string_view::npos || MayHoldMarkers(text);
}

FactOptions FactOptionsFor(const AnalysisOptions& options) {
  FactOptions facts;
  facts.default_namespace = options.default_namespace;
  facts.consumer_kinds = options.config.consumer_kinds;
  facts.keep_trees = options.previous != nullptr;
  return facts;
}

std::string ObjectName(const Document& doc, const std::string& default_namespace) {
  const std::string& name_space = doc.NamespaceOr(default_namespace);
  return doc.kind() + " " + name_space + "/" + doc.name();
}

std::string DescribeReference(const Reference& reference) {
  std::string out =
      std::string(SourceKindSlug(reference.source().kind)) + "/" + reference.source().name;
  if (reference.keys) {
    std::string keys;
    for (const Name& key : *reference.keys) keys += (keys.empty() ? "" : ",") + key;
    out += "[" + keys + "]";
  }
  out += std::string(" via ") + ReadViaName(reference.via);
  if (!reference.container().empty()) out += " in container " + reference.container();
  if (!reference.volume().empty()) out += " " + reference.volume();
  return out;
}

Analysis::Analysis(std::vector<Document> documents, AnalysisOptions options,
                   std::vector<CountedNotObjects> counted, SourceDefinitions definitions)
    : options_(std::move(options)),
      documents_(std::move(documents)),
      counted_(std::move(counted)),
      model_(BuildModel(documents_, std::move(definitions), options_.default_namespace,
                        options_.config.consumer_kinds)),
      runtime_(documents_, options_.config.runtime_sources),
      secret_writers_(documents_) {
  AddStateSources(model_, options_.state);
  LookUpUnresolved();
  std::vector<std::string>& patterns = options_.jobs.run_once_patterns;
  patterns.insert(patterns.end(), options_.config.run_once_patterns.begin(),
                  options_.config.run_once_patterns.end());
  // Compiled even when no Job needs them: a bad pattern is refused on every input.
  NamePatterns run_once(patterns);
  for (Consumer& consumer : model_.consumers) {
    if (consumer.role == ConsumerRole::kPlainJob) {
      consumer.job_action = DecideJobAction(consumer, options_.jobs, run_once);
    }
  }
  ScanStreamMarkers();
  for (Marker& marker : options_.loose_markers) markers_.push_back(std::move(marker));
  options_.loose_markers.clear();
  ReadSuppressions();
  for (const Consumer& consumer : model_.consumers) {
    if (consumer.notes == nullptr) continue;
    for (const std::string& word : consumer.notes->hook_words) {
      generated_.emplace(std::make_pair(consumer.name_space.str(), word), consumer.Describe());
    }
  }
  for (const StateHookWord& word : options_.state_hook_words) {
    generated_.emplace(std::make_pair(word.name_space, word.word), word.hook);
  }
  std::size_t references = 0;
  for (const Consumer& consumer : model_.consumers) references += consumer.references.size();
  coverage_ = CoverageRecords(&model_.consumers);
  coverage_.reserve(references);
  for (const Consumer& consumer : model_.consumers) {
    std::optional<const Marker*> annotation_marker;  // read when a reference first needs it
    for (const Reference& reference : consumer.references) {
      coverage_.Add(Cover(consumer, reference, annotation_marker));
    }
  }
}

Analysis::~Analysis() {
  // Freeing a large stream's trees one by one takes as long as a good part of the
  // parse; they are independent, so they go on all threads, once the consumers
  // (which hold nodes of them) are gone.
  model_.consumers.clear();
  DropTrees(documents_);
}

CoverageSummary Analysis::Summary() const {
  CoverageSummary summary;
  for (const ReferenceCoverage& entry : coverage_) summary.Add(entry.state);
  return summary;
}

bool Analysis::IsBound(const Marker& marker) const {
  auto found = bound_.find(&marker);
  return found != bound_.end() && found->second;
}

void Analysis::LookUpUnresolved() {
  if (!options_.lookup) return;
  std::set<SourceId> wanted;
  for (const Consumer& consumer : model_.consumers) {
    for (const Reference& reference : consumer.references) {
      // Runtime-rotated sources are not worth reading: no render-time hash helps them.
      const SourceId& id = reference.source();
      if (model_.sources.Contains(id) || id.name.empty() || runtime_.Find(id) != nullptr) {
        continue;
      }
      // No object can have such a name; and a cluster is never asked about one
      // (it could read as an option to kubectl: docs/security.md).
      if (!IsSourceName(id.name.view()) || !IsNamespaceName(id.name_space.view())) {
        invalid_names_.insert(id);
      } else {
        wanted.insert(id);
      }
    }
  }
  if (wanted.empty()) return;
  LookupResult found = options_.lookup({wanted.begin(), wanted.end()});
  AddStateSources(model_, found.sources);
  if (found.findings.empty()) {
    for (const SourceId& id : wanted) {
      if (!model_.sources.Contains(id)) missing_in_cluster_.insert(id);
    }
  }
  lookup_findings_ = std::move(found.findings);
}

const Document* Analysis::PreviousOf(const Document& doc) const {
  if (options_.previous == nullptr || doc.shape() != Document::Shape::kObject) return nullptr;
  return options_.previous->Find(KeyOf(doc, options_.default_namespace));
}

bool Analysis::AlreadyRan(const Consumer& consumer) const {
  return consumer.job_action == JobAction::kRunOnce && PreviousOf(*consumer.document) != nullptr;
}

void Analysis::ScanStreamMarkers() {
  std::set<const Stream*> seen;
  for (const Document& doc : documents_) {
    const Stream* stream = &doc.stream();
    if (!seen.insert(stream).second) continue;
    if (!MayHoldMarkers(stream->bytes())) continue;
    for (Marker& marker : ScanMarkers(stream->bytes(), stream->lines(), stream->origin())) {
      // Name the marker after the document it sits in (a chart template, for Helm).
      std::size_t offset = stream->lines().LineStart(marker.line);
      for (const Document& owner : documents_) {
        const DocumentSpan& span = owner.span();
        if (&owner.stream() == stream && span.begin <= offset && offset < span.end) {
          marker.where.source = std::string(owner.template_path());
          marker.where.document = span.index;
        }
      }
      markers_.push_back(std::move(marker));
      by_line_[{stream, markers_.back().line}].push_back(&markers_.back());
    }
  }
}

void Analysis::ReadSuppressions() {
  for (const Document& doc : documents_) {
    if (doc.shape() != Document::Shape::kObject) continue;
    const WrittenValue* value = doc.Annotation(kIgnoreAnnotation);
    if (value == nullptr) continue;
    const std::string& text = value->text;
    std::vector<Suppression>& list = suppressions_[ObjectName(doc, options_.default_namespace)];
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t end = text.find(';', start);
      if (end == std::string::npos) end = text.size();
      std::string part = text.substr(start, end - start);
      start = end + 1;
      if (part.find_first_not_of(" \t") == std::string::npos) continue;
      Suppression suppression;
      suppression.where = doc.LocateAt(value->pos);
      std::size_t colon = part.find(':');
      std::string_view view(part);
      suppression.rule = std::string(TrimBlanks(view.substr(0, colon)));
      suppression.reason =
          colon == std::string::npos ? "" : std::string(TrimBlanks(view.substr(colon + 1)));
      if (FindRule(suppression.rule) == nullptr) {
        suppression.problem = "unknown rule id \"" + suppression.rule + "\"";
      } else if (suppression.reason.empty()) {
        suppression.problem =
            "\"" + suppression.rule + "\" needs a reason: \"" + suppression.rule + ": <why>\"";
      }
      list.push_back(std::move(suppression));
    }
  }
}

const Marker* Analysis::AnnotationMarker(const Consumer& consumer) {
  // The object's own annotation first, then its pod template's.
  std::optional<WrittenValue> value;
  const WrittenValue* on_object = consumer.listed()
                                      ? consumer.ObjectMarker()
                                      : consumer.document->Annotation(kSecretVersionAnnotation);
  if (on_object != nullptr) {
    value = *on_object;
  } else if (const NodeShape* on_template = consumer.TemplateAnnotation(kSecretVersionAnnotation)) {
    value = WrittenValue{on_template->scalar, on_template->pos, on_template->IsScalar()};
  }
  if (value) {
    Marker marker;
    marker.text = value->text;
    marker.value = ParseMarkerValue(marker.text);
    marker.where = consumer.document->LocateAt(value->pos);
    marker.line = marker.where.line;
    marker.trailing = true;
    markers_.push_back(std::move(marker));
    return &markers_.back();
  }
  return nullptr;
}

const Marker* Analysis::LineMarker(const Consumer& consumer, const Reference& reference) {
  const Document& doc = *consumer.document;
  const std::vector<std::uint32_t>& lines = consumer.MarkerLines(reference);
  for (std::size_t line : lines) {
    for (std::size_t candidate : {line, line - 1}) {
      auto found = by_line_.find({&doc.stream(), candidate});
      if (found == by_line_.end()) continue;
      for (const Marker* marker : found->second) {
        if (MarkerBinds(*marker, lines)) return marker;
      }
    }
  }
  return nullptr;
}

namespace {

// The restart controller a consumer's annotations ask to act on a change to `source`.
const RestartWatch* WatchOf(const Consumer& consumer, const SourceId& source) {
  if (consumer.notes == nullptr) return nullptr;
  for (const RestartWatch& watch : consumer.notes->restart_watches) {
    if (watch.Watches(source.kind == SourceKind::kSecret, source.name.view())) return &watch;
  }
  return nullptr;
}

}  // namespace

const Rotation* Analysis::SelfManaged(const Consumer& consumer, const Reference& reference) const {
  // An operator starts without the Secret it makes (so reads it optionally) and may
  // write Secrets of its namespace; a pod reads Secrets of its own namespace only.
  if (!reference.optional || reference.source_kind != SourceKind::kSecret) return nullptr;
  return secret_writers_.Find(consumer.name_space, consumer.ServiceAccount());
}

void Analysis::CoverUnknown(const Consumer& consumer, const Reference& reference,
                            ReferenceCoverage& out) const {
  const SourceId& source = reference.source();
  auto waive = [&out](CoverageCause cause) {
    out.state = Coverage::kWaived;
    out.cause = cause;
  };
  const bool missing = missing_in_cluster_.count(source) > 0;
  if (invalid_names_.count(source) > 0) {
    out.cause = CoverageCause::kInvalidName;
  } else if (IsHookRole(consumer.role)) {
    waive(CoverageCause::kHook);
  } else if (missing && reference.optional) {
    waive(CoverageCause::kAbsentOptional);
  } else if (source.kind == SourceKind::kConfigMap && source.name == "kube-root-ca.crt" &&
             (reference.via == ReadVia::kVolume || reference.via == ReadVia::kProjected)) {
    // A service account token volume written out (charts do, for automount: false).
    waive(CoverageCause::kClusterPublished);
  } else if (const RestartWatch* watch = WatchOf(consumer, source)) {
    waive(CoverageCause::kRestarted);
    out.watch = watch;
  } else if (auto generator = generated_.find({source.name_space.str(), source.name.str()});
             source.kind == SourceKind::kSecret && generator != generated_.end()) {
    waive(CoverageCause::kHookGenerated);
    out.generator = &generator->second;
  } else if (const Rotation* writer = SelfManaged(consumer, reference)) {
    out.state = Coverage::kRuntime;
    out.cause = CoverageCause::kRuntime;
    out.rotation = writer;
  } else {
    out.cause = missing ? CoverageCause::kAbsentEverywhere : CoverageCause::kNotInInput;
  }
}

ReferenceCoverage Analysis::Cover(const Consumer& consumer, const Reference& reference,
                                  std::optional<const Marker*>& annotation_marker) {
  ReferenceCoverage out;
  out.consumer = &consumer;
  out.reference = &reference;
  out.marker = LineMarker(consumer, reference);
  if (out.marker == nullptr) {
    // One annotation marker per consumer, shared by its references.
    if (!annotation_marker) annotation_marker = AnnotationMarker(consumer);
    out.marker = *annotation_marker;
  }
  if (out.marker != nullptr) {
    bound_[out.marker] = true;
    const MarkerValue& value = out.marker->value;
    if (value.kind == MarkerKind::kPending) {
      out.state = Coverage::kPending;
      out.cause = CoverageCause::kMarker;
      return out;
    }
    if (value.kind == MarkerKind::kStatic ||
        (value.kind == MarkerKind::kReloads && Reloadable(consumer, reference))) {
      out.state = Coverage::kWaived;
      out.cause = CoverageCause::kMarker;
      return out;
    }
  }
  if (const Rotation* rotation = runtime_.Find(reference.source())) {
    out.state = Coverage::kRuntime;
    out.cause = CoverageCause::kRuntime;
    out.rotation = rotation;
    return out;
  }
  bool known = model_.sources.Contains(reference.source());
  if (consumer.role == ConsumerRole::kOwnedPod) {
    // Its controller's template is the reader: what rolls, or not, is that.
    out.state = Coverage::kWaived;
    out.cause = CoverageCause::kOwnedPod;
  } else if (consumer.job_action == JobAction::kRunOnce) {
    out.state = Coverage::kWaived;
    out.cause = CoverageCause::kRunOnce;
  } else if (!known) {
    CoverUnknown(consumer, reference, out);
  } else if (consumer.job_action == JobAction::kKeep) {
    out.cause = CoverageCause::kJobKept;
  } else if (consumer.role == ConsumerRole::kPod) {
    out.cause = CoverageCause::kBarePod;
  } else {
    out.state = Coverage::kHashed;
    out.cause = CoverageCause::kContentKnown;
  }
  return out;
}

}  // namespace rollcall
