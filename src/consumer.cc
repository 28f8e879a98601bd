// Consumers: pod templates and every reference in them to a Secret or ConfigMap.
#include <algorithm>
#include <initializer_list>
#include <map>
#include <stdexcept>

#include "rollcall/annotate.h"
#include "rollcall/consumer_kinds.h"
#include "rollcall/field_types.h"
#include "rollcall/input_error.h"
#include "rollcall/markers.h"
#include "rollcall/model.h"
#include "rollcall/object_type.h"
#include "rollcall/template_hash.h"
#include "rollcall/yaml11.h"

namespace rollcall {

// One allocation of 80 bytes for a consumer and its one reference.
static_assert(sizeof(Consumer) <= 64,
              "one for every workload of a large stream (an 80-byte allocation)");
static_assert(sizeof(Reference) <= 24, "one for every reference of a large stream");

const char* ReadViaName(ReadVia via) {
  switch (via) {
    case ReadVia::kEnv:
      return "env";
    case ReadVia::kEnvFrom:
      return "envFrom";
    case ReadVia::kVolume:
      return "volume";
    case ReadVia::kProjected:
      return "projected volume";
  }
  return "?";
}

std::string Consumer::Describe() const { return kind() + " " + name_space + "/" + name(); }

Location Consumer::Where() const {
  return listed() ? document->LocateAt(notes->listed->pos) : document->Locate();
}

std::vector<VolumeMount> Consumer::Mounts(const Reference& reference) const {
  std::vector<VolumeMount> out;
  if (reference.volume().empty()) return out;
  if (notes == nullptr) return out;
  for (const VolumeMount& mount : notes->mounts) {
    if (mount.volume == reference.volume()) out.push_back(mount);
  }
  return out;
}

const WrittenValue* Consumer::ObjectMarker() const {
  return notes != nullptr ? notes->object_marker.get() : nullptr;
}

ConsumerNotes& Consumer::MutableNotes() {
  if (notes == nullptr) notes = std::make_unique<ConsumerNotes>();
  return *notes;
}

Name Consumer::ServiceAccount() const {
  if (notes == nullptr || notes->service_account.empty()) return Name("default");
  return notes->service_account;
}

bool LeftAsWritten(const Consumer& consumer) {
  return consumer.role == ConsumerRole::kPod || consumer.role == ConsumerRole::kOwnedPod ||
         (consumer.role == ConsumerRole::kPlainJob && consumer.job_action != JobAction::kRename);
}

const std::vector<std::uint32_t>& Consumer::MarkerLines(const Reference& reference) const {
  static const std::vector<std::uint32_t> kNone;
  const auto index = static_cast<std::size_t>(&reference - references.begin());
  if (notes == nullptr || index >= notes->marker_lines.size()) return kNone;
  return notes->marker_lines[index];
}

namespace {

// The mapping of `node`'s tree (`node` or below it) that starts at `pos`, depth
// first: a child starts at or past its parent, so a node past `pos` is not searched.
YamlNode MapAt(const YamlNode& node, std::size_t pos) {
  const std::size_t at = MarkPos(node.Mark());
  if (node.IsMap() && at == pos) return node;
  if (at > pos || !(node.IsMap() || node.IsSequence())) return {};
  for (const auto& entry : node) {
    YamlNode found = MapAt(node.IsMap() ? entry.second : static_cast<const YamlNode&>(entry), pos);
    if (found.IsDefined()) return found;
  }
  return {};
}

}  // namespace

YamlNode Consumer::pod_template() const {
  if (document == nullptr || !document->has_tree()) return {};
  const NodeShape& captured = template_shape;
  return MapAt(document->root(), captured.pos);
}

Location Consumer::Locate(const Reference& reference) const {
  return document->LocateAt(reference.pos);
}

const NodeShape* Consumer::TemplateAnnotation(const std::string& key) const {
  const NodeShape* metadata = FindValue(template_shape, "metadata");
  const NodeShape* annotations = metadata ? FindValue(*metadata, "annotations") : nullptr;
  return annotations ? FindValue(*annotations, key) : nullptr;
}

bool Consumer::HoldsOwnAnnotations() const {
  for (const char* key :
       {kConfigHashAnnotation, kConfigSourcesAnnotation, kSecretVersionAnnotation})
    if (TemplateAnnotation(key) != nullptr) return true;
  return false;
}

namespace {

constexpr const char* kContainerLists[] = {"initContainers", "containers", "ephemeralContainers"};

class ReferenceCollector {
 public:
  // `spec_path` is the pod spec's path in the object, for the API server's words
  // about a field it refuses: "spec.template.spec".
  // `hook`: a hook's words are kept (ConsumerNotes::hook_words).
  ReferenceCollector(const Document& doc, Name name_space, std::string spec_path, bool hook)
      : doc_(doc),
        name_space_(name_space),
        marker_lines_(MayHoldMarkers(doc.span().Text(doc.stream().bytes()))),
        hook_(hook),
        spec_path_(std::move(spec_path)) {}

  // Restart controllers the consumer's annotations ask for, kept with its notes.
  void Watch(std::vector<RestartWatch> watches) { notes_.restart_watches = std::move(watches); }

  // The references of `pod_spec`, and the mounts of the volumes they read.
  void Collect(const YamlNode& pod_spec, Consumer& consumer) {
    const YamlNode ephemeral = Child(pod_spec, "ephemeralContainers");
    if (ephemeral.IsSequence() && ephemeral.size() > 0) {
      // They are added to a running Pod through its own subresource, never written.
      Malformed(ephemeral, spec_path_ + ".ephemeralContainers",
                spec_path_ == "spec" ? "Forbidden: cannot be set on create"
                                     : "Forbidden: ephemeral containers not allowed in pod "
                                       "template");
    }
    for (const char* list : kContainerLists) {
      ForEachItem(pod_spec, spec_path_, list,
                  [&](const YamlNode& container) { Container(container, list); });
    }
    ForEachItem(pod_spec, spec_path_, "volumes", [&](const YamlNode& volume) { Volume(volume); });
    // Make adds one entry of lines for each reference it makes, and each is kept.
    if (marker_lines_ && notes_.marker_lines.size() != references_.size()) {
      throw std::logic_error("rollcall: a reference without its marker lines");
    }
    notes_.marker_lines.shrink_to_fit();
    std::vector<Name> read;  // the volumes references read
    for (const Reference& reference : references_) {
      if (!reference.volume().empty()) read.push_back(reference.volume());
    }
    std::sort(read.begin(), read.end());
    for (const VolumeMount& mount : mounts_) {
      if (std::binary_search(read.begin(), read.end(), mount.volume)) {
        notes_.mounts.push_back(mount);
      }
    }
    notes_.mounts.shrink_to_fit();
    if (std::any_of(references_.begin(), references_.end(), [](const Reference& reference) {
          return reference.optional && reference.source_kind == SourceKind::kSecret;
        })) {
      // serviceAccount is the field's deprecated name, which the API server still reads.
      notes_.service_account = ScalarOr(Child(pod_spec, "serviceAccountName"),
                                        ScalarOr(Child(pod_spec, "serviceAccount")));
    }
    consumer.references = InlineFirstList<Reference>(std::move(references_));
    std::sort(notes_.hook_words.begin(), notes_.hook_words.end());
    notes_.hook_words.erase(std::unique(notes_.hook_words.begin(), notes_.hook_words.end()),
                            notes_.hook_words.end());
    // A List item's notes hold its type and name already (ConsumerOf): they stay.
    if (consumer.notes != nullptr) notes_.listed = std::move(consumer.notes->listed);
    if (!notes_.empty()) consumer.notes = std::make_unique<ConsumerNotes>(std::move(notes_));
  }

 private:
  // A key on the way from a list entry to the reference: a marker may sit on its line.
  using Hop = std::pair<YamlNode, const char*>;

  // `entry` is the list entry holding the reference (env, envFrom or volume) and
  // `hops` the keys from it to the reference; with the name and key lines, their
  // lines are where a SECRET-VERSION marker binds to this reference.
  // `path` is the reference's path in the object, for StringField.
  // Records what the API server's validation refuses at `node` (`path` its field):
  // a reference that then reads nothing, or how references are written together.
  void Malformed(const YamlNode& node, std::string path, std::string problem,
                 bool reads_nothing = false) {
    notes_.malformed.push_back({static_cast<std::uint32_t>(MarkPos(node.Mark())), std::move(path),
                                std::move(problem), reads_nothing});
  }

  // How many of `fields` are set (not null) in `map`, and the second one set.
  static std::pair<std::size_t, const char*> FieldsSet(const YamlNode& map,
                                                       std::initializer_list<const char*> fields) {
    std::size_t set = 0;
    const char* second = nullptr;
    for (const char* field : fields) {
      const YamlNode value = Child(map, field);
      if (!value.IsDefined() || value.IsNull()) continue;
      if (++set == 2) second = field;
    }
    return {set, second};
  }

  // Whether the reference `ref` at `path` names its source (`name_field`) and, for a
  // key reference, its key; a reference that does not is recorded as malformed, as
  // the API server refuses it, and reads nothing.
  bool WellFormed(const YamlNode& ref, const char* name_field, bool key_reference,
                  const std::string& path) {
    // Decoded before it is validated: a field of the wrong type is refused first.
    BoolField(doc_, Child(ref, "optional"), path + ".optional");
    bool ok = true;
    for (const char* field : {name_field, key_reference ? "key" : nullptr}) {
      if (field == nullptr) continue;
      YamlNode value = Child(ref, field);
      if (!StringField(doc_, value, path + "." + field).empty()) continue;
      Malformed(value.IsDefined() ? value : ref, path + "." + field, "Required value",
                /*reads_nothing=*/true);
      ok = false;
    }
    return ok;
  }

  // A hook's words that may name a Secret it creates: in each string, those after
  // the word "secret" (`--secret-name=x`, `kubectl create secret generic x`), and all
  // of a string that follows such a flag (`--secret-name`, `x`) or is the value of an
  // env var whose name says SECRET. Words split where no object name can go.
  void KeepWords(const YamlNode& node, bool all_of_it = false) {
    if (!hook_ || !node.IsDefined()) return;
    std::vector<std::string> texts;
    if (node.IsScalar()) texts.emplace_back(node.Scalar());
    if (node.IsSequence()) {
      for (const auto& item : node) {
        if (item.IsScalar()) texts.emplace_back(item.Scalar());
      }
    }
    bool after_flag = all_of_it;
    for (const std::string& text : texts) {
      std::size_t said = SaysSecret(text);
      std::size_t from = after_flag ? 0 : said;
      after_flag = said != std::string::npos && text.find('=', said) == std::string::npos;
      if (from == std::string::npos) continue;
      std::size_t start = from;
      for (std::size_t i = from; i <= text.size(); ++i) {
        char c = i < text.size() ? text[i] : ' ';
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.') continue;
        if (i > start) notes_.hook_words.push_back(text.substr(start, i - start));
        start = i + 1;
      }
    }
  }

  // Where the word "secret", in any case, ends in `text`; npos when it is not there.
  static std::size_t SaysSecret(std::string_view text) {
    constexpr std::string_view kWord = "secret";
    for (std::size_t i = 0; i + kWord.size() <= text.size(); ++i) {
      bool match = true;
      for (std::size_t k = 0; k < kWord.size() && match; ++k) {
        match = (text[i + k] | 0x20) == kWord[k];
      }
      if (match) return i + kWord.size();
    }
    return std::string_view::npos;
  }

  Reference Make(SourceKind kind, const YamlNode& ref, const char* name_field, ReadVia via,
                 const YamlNode& entry, std::initializer_list<Hop> hops, const std::string& path) {
    Reference out;
    out.set_source(
        {kind, name_space_, StringField(doc_, Child(ref, name_field), path + "." + name_field)});
    out.via = via;
    out.optional = BoolField(doc_, Child(ref, "optional"), path + ".optional");
    YamlNode name = Child(ref, name_field);
    YamlMark mark = name.IsDefined() ? name.Mark() : ref.Mark();
    out.pos = static_cast<std::uint32_t>(MarkPos(mark));
    if (!marker_lines_) return out;
    std::vector<std::uint32_t>& lines = notes_.marker_lines.emplace_back();
    AddLine(lines, entry);
    for (const auto& [map, key] : hops) {
      for (const auto& item : map) {
        if (item.first.IsScalar() && item.first.Scalar() == key) AddLine(lines, item.first);
      }
    }
    AddLine(lines, name);
    AddLine(lines, Child(ref, "key"));
    lines.shrink_to_fit();
    return out;
  }

  // Calls `visit` for each object of the list `field` of `map` (at `path`): a list
  // or an item of another shape is refused, as the API server refuses it; a null
  // item is the zero value to Go, with nothing to read.
  template <typename Visit>
  void ForEachItem(const YamlNode& map, const std::string& path, const char* field,
                   Visit visit) const {
    const std::string item_path = path + "." + field;
    YamlNode list = ListField(doc_, Child(map, field), item_path);
    if (!list.IsDefined()) return;
    for (const auto& item : list) {
      YamlNode object = MapField(doc_, item, item_path);
      if (object.IsDefined()) visit(object);
    }
  }

  void AddLine(std::vector<std::uint32_t>& lines, const YamlNode& node) const {
    if (!node.IsDefined()) return;
    auto line = static_cast<std::uint32_t>(doc_.Locate(node.Mark()).line);
    if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
  }

  void Container(const YamlNode& container, const char* list) {
    const std::string path = spec_path_ + "." + list;
    Name name = StringField(doc_, Child(container, "name"), path + ".name");
    const bool run_once = std::string_view(list) == "initContainers" &&
                          ScalarOr(Child(container, "restartPolicy")) != "Always";
    ForEachItem(container, path, "env", [&](const YamlNode& env) {
      // `value: 0123` unquoted is a number to Kubernetes (YAML 1.1): the whole
      // object is refused.
      StringField(doc_, Child(env, "name"), path + ".env.name");
      StringField(doc_, Child(env, "value"), path + ".env.value");
      KeepWords(Child(env, "value"),
                SaysSecret(ScalarOr(Child(env, "name"))) != std::string_view::npos);
      YamlNode from = MapField(doc_, Child(env, "valueFrom"), path + ".env.valueFrom");
      if (from.IsDefined()) {
        // validateEnvVarValueFrom's words.
        const std::size_t sources =
            FieldsSet(from, {"fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef",
                             "fileKeyRef"})
                .first;
        if (sources > 0 && !ScalarOr(Child(env, "value")).empty()) {
          Malformed(from, path + ".env.valueFrom",
                    "Invalid value: \"\": may not be specified when `value` is not empty");
        } else if (sources > 1) {
          Malformed(from, path + ".env.valueFrom",
                    "Invalid value: \"\": may not have more than one field specified at a time");
        }
      }
      for (auto [field, kind] : {std::pair{"secretKeyRef", SourceKind::kSecret},
                                 std::pair{"configMapKeyRef", SourceKind::kConfigMap}}) {
        const std::string ref_path = path + ".env.valueFrom." + field;
        YamlNode ref = MapField(doc_, Child(from, field), ref_path);
        if (!ref.IsDefined() || !WellFormed(ref, "name", /*key_reference=*/true, ref_path)) {
          continue;
        }
        Reference out = Make(kind, ref, "name", ReadVia::kEnv, env,
                             {{env, "valueFrom"}, {from, field}}, ref_path);
        out.keys = KeySet::Of(StringField(doc_, Child(ref, "key"), ref_path + ".key"));
        out.reader = name;
        references_.push_back(out);
      }
    });
    KeepWords(Child(container, "command"));
    KeepWords(Child(container, "args"));
    ForEachItem(container, path, "envFrom", [&](const YamlNode& env_from) {
      bool any = false;
      for (auto [field, kind] : {std::pair{"secretRef", SourceKind::kSecret},
                                 std::pair{"configMapRef", SourceKind::kConfigMap}}) {
        const std::string ref_path = path + ".envFrom." + field;
        YamlNode ref = MapField(doc_, Child(env_from, field), ref_path);
        if (!ref.IsDefined()) continue;
        any = true;
        if (!WellFormed(ref, "name", /*key_reference=*/false, ref_path)) continue;
        Reference out =
            Make(kind, ref, "name", ReadVia::kEnvFrom, env_from, {{env_from, field}}, ref_path);
        out.reader = name;
        references_.push_back(out);
      }
      // `configMapRef: null`, as a mis-indented `name:` leaves it, is no source.
      if (!any) {
        Malformed(env_from, path + ".envFrom",
                  "Invalid value: \"\": must specify one of: `configMapRef` or `secretRef`",
                  /*reads_nothing=*/true);
      } else if (FieldsSet(env_from, {"configMapRef", "secretRef"}).first > 1) {
        Malformed(env_from, path + ".envFrom",
                  "Invalid value: \"\": may not have more than one field specified at a time");
      }
    });
    ForEachItem(container, path, "volumeMounts", [&](const YamlNode& mount) {
      bool sub_path = !ScalarOr(Child(mount, "subPath")).empty() ||
                      !ScalarOr(Child(mount, "subPathExpr")).empty();
      mounts_.push_back({StringField(doc_, Child(mount, "name"), path + ".volumeMounts.name"), name,
                         sub_path, run_once});
    });
  }

  void AddVolumeSource(const YamlNode& ref, SourceKind kind, const char* name_field, ReadVia via,
                       const YamlNode& volume_entry, std::initializer_list<Hop> hops,
                       const std::string& path) {
    Name volume = StringField(doc_, Child(volume_entry, "name"), spec_path_ + ".volumes.name");
    YamlNode items = ListField(doc_, Child(ref, "items"), path + ".items");
    std::vector<Name> keys;
    ForEachItem(ref, path, "items", [&](const YamlNode& item) {
      keys.emplace_back(StringField(doc_, Child(item, "key"), path + ".items.key"));
    });
    if (!WellFormed(ref, name_field, /*key_reference=*/false, path)) return;
    Reference out = Make(kind, ref, name_field, via, volume_entry, hops, path);
    if (items.IsDefined() && items.size() > 0) out.keys = KeySet(std::move(keys));
    out.reader = volume;
    references_.push_back(out);
  }

  void Volume(const YamlNode& volume) {
    const std::string path = spec_path_ + ".volumes";
    // Every volume's name is a string to the API server's decoder, read or not.
    StringField(doc_, Child(volume, "name"), path + ".name");
    // validateVolumeSource counts the types in this order and names the second.
    const auto [types, second] = FieldsSet(volume, {"emptyDir",
                                                    "hostPath",
                                                    "gitRepo",
                                                    "gcePersistentDisk",
                                                    "awsElasticBlockStore",
                                                    "secret",
                                                    "nfs",
                                                    "iscsi",
                                                    "glusterfs",
                                                    "flocker",
                                                    "persistentVolumeClaim",
                                                    "rbd",
                                                    "cinder",
                                                    "cephfs",
                                                    "quobyte",
                                                    "downwardAPI",
                                                    "fc",
                                                    "flexVolume",
                                                    "configMap",
                                                    "azureFile",
                                                    "vsphereVolume",
                                                    "photonPersistentDisk",
                                                    "portworxVolume",
                                                    "azureDisk",
                                                    "storageos",
                                                    "projected",
                                                    "scaleIO",
                                                    "csi",
                                                    "ephemeral",
                                                    "image"});
    if (types > 1) {
      Malformed(Child(volume, second), path + "." + second,
                "Forbidden: may not specify more than 1 volume type");
    }
    if (YamlNode secret = MapField(doc_, Child(volume, "secret"), path + ".secret");
        secret.IsDefined()) {
      AddVolumeSource(secret, SourceKind::kSecret, "secretName", ReadVia::kVolume, volume,
                      {{volume, "secret"}}, path + ".secret");
    }
    if (YamlNode config_map = MapField(doc_, Child(volume, "configMap"), path + ".configMap");
        config_map.IsDefined()) {
      AddVolumeSource(config_map, SourceKind::kConfigMap, "name", ReadVia::kVolume, volume,
                      {{volume, "configMap"}}, path + ".configMap");
    }
    const std::string projected_path = path + ".projected";
    YamlNode projected = MapField(doc_, Child(volume, "projected"), projected_path);
    ForEachItem(projected, projected_path, "sources", [&](const YamlNode& source) {
      const std::string source_path = projected_path + ".sources";
      if (YamlNode secret = MapField(doc_, Child(source, "secret"), source_path + ".secret");
          secret.IsDefined()) {
        AddVolumeSource(secret, SourceKind::kSecret, "name", ReadVia::kProjected, volume,
                        {{volume, "projected"}, {source, "secret"}}, source_path + ".secret");
      }
      if (YamlNode config_map =
              MapField(doc_, Child(source, "configMap"), source_path + ".configMap");
          config_map.IsDefined()) {
        AddVolumeSource(config_map, SourceKind::kConfigMap, "name", ReadVia::kProjected, volume,
                        {{volume, "projected"}, {source, "configMap"}}, source_path + ".configMap");
      }
    });
  }

  const Document& doc_;
  Name name_space_;
  bool marker_lines_;  // whether the document has a marker's text, so lines matter
  bool hook_;
  ConsumerNotes notes_;
  std::vector<Reference> references_;
  std::vector<VolumeMount> mounts_;  // every container's, in order
  std::string spec_path_;
};

// Reads the annotations of `metadata`: a scalar's text, else nothing.
AnnotationReader AnnotationsOf(const YamlNode& metadata) {
  return [annotations = Child(metadata, "annotations")](const char* key) {
    YamlNode value = Child(annotations, key);
    return value.IsScalar() ? std::optional<std::string>(value.Scalar()) : std::nullopt;
  };
}

// Whether `metadata` names a controller among the object's owners (an ownerReference
// with `controller: true`, as a ReplicaSet, StatefulSet, DaemonSet or Job writes on the
// pods it makes).
bool HasController(const YamlNode& metadata) {
  YamlNode owners = Child(metadata, "ownerReferences");
  if (!owners.IsSequence()) return false;
  return std::any_of(owners.begin(), owners.end(), [](const YamlNode& owner) {
    return ScalarOr(Child(owner, "controller")) == "true";
  });
}

ConsumerRole RoleOf(const std::string& kind, bool hook, bool controlled) {
  if (kind == "Pod") {
    if (hook) return ConsumerRole::kHookPod;
    return controlled ? ConsumerRole::kOwnedPod : ConsumerRole::kPod;
  }
  if (kind != "Job") return ConsumerRole::kWorkload;
  return hook ? ConsumerRole::kHookJob : ConsumerRole::kPlainJob;
}

// The pod template of `object`, whose kind is `kind`, and its `path` (such as
// "spec.template"). Each step of the way is an object to the API server (`spec: x`
// is refused).
YamlNode PodTemplateOf(const Document& doc, const YamlNode& object, const ConsumerKind& kind,
                       std::string& path) {
  YamlNode pod_template = object;
  for (const std::string& key : kind.path) {
    path += (path.empty() ? "" : ".") + key;
    pod_template = MapField(doc, Child(pod_template, key.c_str()), path);
  }
  return pod_template;
}

// The consumer `object` is, if its kind has a pod template: the document's root,
// or an item of a List (`listed`, whose Jobs the caller refuses whatever their
// role).
std::optional<Consumer> ConsumerOf(const Document& doc, const YamlNode& object, bool listed,
                                   const std::string& default_namespace,
                                   const std::vector<ConsumerKind>& extra_kinds) {
  const ObjectType type = TypeOf(doc, object);
  const std::string& api_version = type.api_version;
  const std::string& kind_name = type.kind;
  const ConsumerKind* kind = FindConsumerKind(api_version, kind_name, extra_kinds);
  if (kind == nullptr) return std::nullopt;
  std::string path;
  YamlNode pod_template = PodTemplateOf(doc, object, *kind, path);
  if (!pod_template.IsDefined()) return std::nullopt;
  const std::string spec_path = path.empty() ? "" : path + ".";

  YamlNode metadata = Child(object, "metadata");
  Consumer consumer;
  consumer.document = &doc;
  if (listed) {
    auto item = std::make_unique<ListedObject>();
    item->api_version = api_version;
    item->kind = kind_name;
    item->name = ScalarOr(Child(metadata, "name"));
    item->pos = static_cast<std::uint32_t>(MarkPos(object.Mark()));
    consumer.MutableNotes().listed = std::move(item);
  }
  std::string name_space = ScalarOr(Child(metadata, "namespace"));
  consumer.name_space = name_space.empty() ? default_namespace : name_space;
  consumer.role = RoleOf(kind_name, !listed && doc.IsHook(), HasController(metadata));
  consumer.template_shape = CaptureForEdit(pod_template);
  const bool hook = IsHookRole(consumer.role);
  ReferenceCollector collector(doc, consumer.name_space, spec_path + "spec", hook);
  CheckMetadataField(doc, Child(pod_template, "metadata"), spec_path + "metadata");
  collector.Watch(ReadRestartWatches(kind_name, AnnotationsOf(metadata),
                                     AnnotationsOf(Child(pod_template, "metadata"))));
  collector.Collect(MapField(doc, Child(pod_template, "spec"), spec_path + "spec"), consumer);
  return consumer;
}

}  // namespace

std::optional<Consumer> ExtractConsumer(const Document& doc, const std::string& default_namespace,
                                        const std::vector<ConsumerKind>& extra_kinds) {
  if (doc.shape() != Document::Shape::kObject) return std::nullopt;
  return ConsumerOf(doc, doc.root(), /*listed=*/false, default_namespace, extra_kinds);
}

std::vector<Consumer> ExtractListedConsumers(const Document& doc,
                                             const std::string& default_namespace,
                                             const std::vector<ConsumerKind>& extra_kinds) {
  std::vector<Consumer> consumers;
  YamlNode items = Child(doc.root(), "items");
  if (!items.IsSequence()) return consumers;
  for (const auto& item : items) {
    if (!item.IsMap()) continue;
    std::optional<Consumer> consumer =
        ConsumerOf(doc, item, /*listed=*/true, default_namespace, extra_kinds);
    if (!consumer) continue;
    if (consumer->role == ConsumerRole::kPlainJob || consumer->role == ConsumerRole::kHookJob) {
      // A plain Job is renamed when its template changes (jobs.h), and rollcall
      // renames only a document's own metadata.
      throw InputError(doc.Locate(item.Mark()),
                       "a Job inside a " + doc.kind() +
                           ": kubectl and Helm apply every item of a List, but rollcall handles "
                           "Jobs only in documents of their own; write the List's items as "
                           "documents (separated by ---)");
    }
    YamlNode marker =
        Child(Child(Child(item, "metadata"), "annotations"), kSecretVersionAnnotation);
    if (marker.IsDefined()) {
      consumer->MutableNotes().object_marker =
          std::make_unique<const WrittenValue>(WrittenValueOf(marker));
    }
    consumers.push_back(std::move(*consumer));
  }
  return consumers;
}

CapturedShape CaptureTemplateAgain(const Consumer& consumer, const Limits& limits,
                                   const std::vector<ConsumerKind>& extra_kinds) {
  const Document& kept = *consumer.document;
  const ConsumerKind* kind =
      FindConsumerKind(consumer.api_version().str(), consumer.kind().str(), extra_kinds);
  if (consumer.listed() || kind == nullptr) {
    throw std::logic_error(
        "rollcall: a consumer's capture was let go where it cannot be taken again");
  }
  const Document doc = ParseDocumentAgain(kept.stream(), kept.span(), limits);
  std::string path;
  return CaptureForEdit(PodTemplateOf(doc, doc.root(), *kind, path));
}

}  // namespace rollcall
