// What the stream says about configuration and its readers: sources (Secrets and
// ConfigMaps with their decoded content), consumers (pod templates) and the
// references from one to the other.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rollcall/consumer_kinds.h"
#include "rollcall/document.h"
#include "rollcall/finding.h"
#include "rollcall/inline_first_list.h"
#include "rollcall/key_set.h"
#include "rollcall/location.h"
#include "rollcall/name.h"
#include "rollcall/node_shape.h"
#include "rollcall/owned_list.h"
#include "rollcall/restart_controllers.h"
#include "rollcall/source.h"
#include "rollcall/source_table.h"
#include "rollcall/yaml_tree.h"

namespace rollcall {

// How a reference reads its source.
enum class ReadVia : std::uint8_t {
  kEnv,        // env[].valueFrom.secretKeyRef / configMapKeyRef
  kEnvFrom,    // envFrom[].secretRef / configMapRef
  kVolume,     // volumes[].secret / configMap
  kProjected,  // volumes[].projected.sources[].secret / configMap
};
const char* ReadViaName(ReadVia via);

// Where a volume is mounted, since a subPath mount never sees an update.
struct VolumeMount {
  Name volume;
  Name container;
  bool sub_path = false;
  // Mounted by an init container that runs to completion before the others start (not
  // a sidecar, `restartPolicy: Always`): it reads the volume once, when a pod starts.
  bool run_once = false;
};

// One place in a pod template that reads a source. Small: a large stream has
// hundreds of thousands, kept for the whole run (docs/performance.md).
struct Reference {
  // Its source, field by field rather than a SourceId, so that the kind, the way it
  // is read and `optional` share one word: 24 bytes, not 32 (docs/performance.md).
  SourceKind source_kind = SourceKind::kSecret;
  ReadVia via = ReadVia::kEnv;
  bool optional = false;
  Name source_namespace, source_name;
  // Where the source's name is written (else the reference), as an offset in the
  // consumer's document: Consumer::Locate makes it a Location, for the few that are
  // ever reported.
  std::uint32_t pos = 0;
  // The container reading it (env, envFrom) or the volume's name (volume,
  // projected): one field, as a reference has one or the other.
  Name reader;
  KeySet keys;  // the keys read; empty: every key

  SourceId source() const { return SourceId{source_kind, source_namespace, source_name}; }
  void set_source(const SourceId& id) {
    source_kind = id.kind;
    source_namespace = id.name_space;
    source_name = id.name;
  }

  // env, envFrom: the container reading it; empty for the others.
  Name container() const { return IsVolumeRead() ? Name() : reader; }
  // volume, projected: the volume's name (Consumer::Mounts has its mounts); empty
  // for the others.
  Name volume() const { return IsVolumeRead() ? reader : Name(); }
  bool IsVolumeRead() const { return via == ReadVia::kVolume || via == ReadVia::kProjected; }
  // Where a SECRET-VERSION marker may sit is in its consumer's notes
  // (Consumer::MarkerLines).
};

// What a consumer is, for what render may do to it.
enum class ConsumerRole : std::uint8_t {
  kWorkload,  // rolls when its pod template changes
  kHookJob,   // a Job its tool deletes and recreates on each run
  kPlainJob,  // a Job whose template is immutable once created
  kPod,       // a bare Pod: cannot roll
  kOwnedPod,  // a Pod a controller owns (what `kubectl get pods` lists): the controller's
              // template is the reader, and the controller replaces it
  kHookPod,   // a Pod its tool deletes and recreates on each run (a Helm test)
};

// A consumer its tool deletes and recreates on each run: a hook Job or Pod.
inline bool IsHookRole(ConsumerRole role) {
  return role == ConsumerRole::kHookJob || role == ConsumerRole::kHookPod;
}

// A reference the API server would refuse, because it names no source or no key:
// `envFrom: [{configMapRef: null}]` (a mis-indented name), a secretKeyRef without
// a key, a secret volume without a secretName; such a one reads nothing. Or what its
// validation refuses in how a pod spec's references are written: two sources in
// one envFrom or valueFrom entry, two types in one volume, ephemeral containers.
struct MalformedReference {
  std::uint32_t pos = 0;  // where it is written, as an offset in the document
  std::string field;      // "spec.template.spec.volumes.secret.secretName"
  std::string problem;    // the API server's words: "Required value"
  // A reference without its name or key reads nothing; a pod spec refused for how
  // its references are written together (two sources in one envFrom) still reads them.
  bool reads_nothing = true;
};

// An item of a List (kind: List, or any object with items): what its consumer
// cannot read from its document, which is the List.
struct ListedObject {
  Name api_version, kind, name;
  std::uint32_t pos = 0;  // its offset in the document's text
};

// What few consumers have, held apart so that the others do not pay for it.
struct ConsumerNotes {
  // An item of a List: its own type, name and place; null for a document's own
  // object, which its consumer reads from the document.
  std::unique_ptr<const ListedObject> listed;
  // The mounts of the volumes that references read, in container order.
  std::vector<VolumeMount> mounts;
  // An item of a List: its own rollcall.dev/secret-version annotation (the
  // document's annotations are the List's), null without one.
  std::unique_ptr<const WrittenValue> object_marker;
  // For each reference, in order: the stream lines a SECRET-VERSION marker may sit
  // on (or directly above): the env, envFrom, volume or projected-source entry, and
  // its name and key lines. Only read when the document has a marker's text
  // (markers.h's MayHoldMarkers): empty otherwise.
  std::vector<std::vector<std::uint32_t>> marker_lines;
  std::vector<MalformedReference> malformed;
  // Controllers its annotations ask to restart it on a change (Reloader, Wave).
  std::vector<RestartWatch> restart_watches;
  // A hook's: the words of its containers' command, args and env values. A hook Job
  // that creates a Secret at install time names it there
  // (`--secret-name=ingress-nginx-admission`).
  std::vector<std::string> hook_words;
  // The pod spec's serviceAccountName, kept only where a reference reads a Secret
  // optionally: what an operator making its own Secret does (Analysis::SelfManaged).
  Name service_account;

  bool empty() const {
    return !listed && mounts.empty() && !object_marker && marker_lines.empty() &&
           malformed.empty() && restart_watches.empty() && hook_words.empty() &&
           service_account.empty();
  }
};

// What render does with a plain Job (jobs.h); kNone for every other consumer.
enum class JobAction : std::uint8_t { kNone, kRename, kKeep, kRunOnce };

// A pod template and the references in it. Small: a large stream keeps one for
// each of its workloads for the whole run (64 bytes with its one reference, an
// 80-byte allocation; docs/performance.md), what few have in its notes. Its type
// and name are its document's, which holds them already, unless it is an item of
// a List (ConsumerNotes::listed).
struct Consumer {
  const Document* document = nullptr;
  Name name_space;  // the object's, else the default namespace
  ConsumerRole role = ConsumerRole::kWorkload;
  JobAction job_action = JobAction::kNone;  // set by the analysis for plain Jobs
  // Its first levels (metadata.annotations and beside), for the annotation edit;
  // empty where the facts let it go (facts.h's FactReader), to be taken again from
  // the document's text (CaptureTemplateAgain).
  CapturedShape template_shape;
  // Nearly always one: held in place then.
  InlineFirstList<Reference> references;
  // Null when it would be empty.
  std::unique_ptr<ConsumerNotes> notes;

  // Its object's apiVersion, kind and metadata.name: its document's, or the List
  // item's. Only once `document` is set where the record stays (BuildModel): the
  // facts move the document after they are read.
  const Name& api_version() const {
    return listed() ? notes->listed->api_version : document->api_version();
  }
  const Name& kind() const { return listed() ? notes->listed->kind : document->kind(); }
  const Name& name() const { return listed() ? notes->listed->name : document->name(); }
  bool listed() const { return notes != nullptr && notes->listed != nullptr; }

  // The mapping holding metadata and spec, while the document keeps its tree
  // (facts.h's KeepsTree); an undefined node after. Found again where its capture
  // says it starts, rather than held: once its `document` is set (BuildModel).
  YamlNode pod_template() const;

  std::string Describe() const;  // "Deployment ns/name"
  Location Where() const;        // the object's first line
  Location Locate(const Reference& reference) const;
  // Where a volume or projected reference's volume is mounted; none for the others.
  std::vector<VolumeMount> Mounts(const Reference& reference) const;
  // The pod template's metadata.annotations[key], or null. For rollcall's own
  // annotations (config-hash, config-sources, secret-version) whether or not the
  // capture is kept: it goes only where it holds none of them (HoldsOwnAnnotations).
  const NodeShape* TemplateAnnotation(const std::string& key) const;
  // Whether its template carries one of rollcall's own annotations.
  bool HoldsOwnAnnotations() const;
  // Where a SECRET-VERSION marker on one of its references may sit (ConsumerNotes);
  // none when the document has no marker's text.
  const std::vector<std::uint32_t>& MarkerLines(const Reference& reference) const;
  // A listed one's own rollcall.dev/secret-version annotation (ConsumerNotes), or null.
  const WrittenValue* ObjectMarker() const;
  // Its notes, made when it has none yet: for what extraction finds.
  ConsumerNotes& MutableNotes();
  // The ServiceAccount its pods run as: the pod spec's serviceAccountName, else
  // "default".
  Name ServiceAccount() const;
};

// Whether render leaves `consumer` byte for byte, whatever hash it carries: a Pod (bare,
// it cannot roll; owned, its controller does) or a plain Job kept or run once.
bool LeftAsWritten(const Consumer& consumer);

// Everything the stream says: sources by id and consumers in stream order.
struct Model {
  SourceTable sources;
  OwnedList<Consumer> consumers;  // each where the facts made it
  std::vector<Finding> findings;  // what building it noticed: sources defined twice
};

// Builds the model of parsed documents from their facts (facts.h), reading those
// of documents parsed without a FactReader first. The sources are `definitions`,
// those a SourceTaker took from the documents as they were parsed, then those
// still in the documents' facts, in stream order: documents parsed without a
// taker. The sources and consumers move from the facts into the model, so a second
// model of the same documents would be empty. A source defined twice keeps the
// last definition, as applying the stream in order would.
Model BuildModel(std::vector<Document>& documents, SourceDefinitions definitions,
                 const std::string& default_namespace,
                 const std::vector<ConsumerKind>& extra_kinds = {});

// A source as one consumer reads it: every key, or only some.
struct SourceRead {
  const Source* source = nullptr;
  std::optional<std::set<std::string>> keys;  // nullopt: every key
};

// What a consumer reads, one entry per source sorted by source id, with the keys
// of all its references to that source together. References whose source is not
// in the model go to `unresolved`.
std::vector<SourceRead> ResolveReads(const Consumer& consumer, const Model& model,
                                     std::vector<const Reference*>* unresolved);

// Reads a Secret or ConfigMap document; nullopt for any other kind. Throws
// InputError naming the object and key (never the value) on undecodable data.
std::optional<Source> ExtractSource(const Document& doc, const std::string& default_namespace);

// The Secrets and ConfigMaps of a document: the document itself, or each item of a
// List (what `kubectl get secret,configmap -o yaml` prints, or a chart's
// `kind: List`). Other kinds are ignored. Used for --state and for every input.
std::vector<Source> ExtractStateSources(const Document& doc, const std::string& default_namespace);

// Reads the pod template of a consumer kind (built in, or in `extra_kinds`);
// nullopt for kinds without one.
std::optional<Consumer> ExtractConsumer(const Document& doc, const std::string& default_namespace,
                                        const std::vector<ConsumerKind>& extra_kinds = {});

// The capture of a consumer's pod template that its facts let go (Consumer::
// template_shape), taken again from its document's text: parsed again, within
// `limits` as it was the first time, and read as ExtractConsumer read it.
CapturedShape CaptureTemplateAgain(const Consumer& consumer, const Limits& limits,
                                   const std::vector<ConsumerKind>& extra_kinds = {});

// The consumers among the items of a List (IsList), which kubectl and Helm apply one
// by one: render annotates their pod templates in place. A Job there is refused
// (InputError): rollcall renames a plain Job's own document only.
std::vector<Consumer> ExtractListedConsumers(const Document& doc,
                                             const std::string& default_namespace,
                                             const std::vector<ConsumerKind>& extra_kinds = {});

}  // namespace rollcall
