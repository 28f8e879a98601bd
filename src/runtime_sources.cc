#include "rollcall/runtime_sources.h"

#include "rollcall/facts.h"

namespace rollcall {
namespace {

constexpr const char* kRotatedByAnnotation = "rollcall.dev/rotated-by";

std::string GroupOf(const std::string& api_version) {
  auto slash = api_version.find('/');
  return slash == std::string::npos ? "" : api_version.substr(0, slash);
}

// The Secret an object says is rotated after the deploy, and by what.
struct Declared {
  std::string secret;  // "" when the object names none
  std::string controller;
};

Declared FromCertificate(const Document& doc, const std::string& name_space) {
  return {ScalarOr(Child(Child(doc.root(), "spec"), "secretName")),
          "cert-manager Certificate " + name_space + "/" + doc.name()};
}

Declared FromExternalSecret(const Document& doc, const std::string& name_space) {
  return {ScalarOr(Child(Child(Child(doc.root(), "spec"), "target"), "name"), doc.name()),
          "ExternalSecret " + name_space + "/" + doc.name()};
}

Declared FromSealedSecret(const Document& doc, const std::string& name_space) {
  return {doc.name(), "SealedSecret " + name_space + "/" + doc.name()};
}

Declared FromAnnotatedSecret(const Document& doc, const std::string& /*name_space*/) {
  if (doc.api_version() != "v1") return {};
  const WrittenValue* by = doc.Annotation(kRotatedByAnnotation);
  if (by == nullptr || by->text.empty()) return {};
  return {doc.name(), std::string(kRotatedByAnnotation) + ": " + by->text};
}

// The kinds that can declare a rotation, and how each says which Secret: one table
// for the parse decision (MayDeclareRotation) and the reading.
struct Declarer {
  const char* group;
  const char* kind;
  Declared (*read)(const Document& doc, const std::string& name_space);
};

constexpr Declarer kDeclarers[] = {
    {"cert-manager.io", "Certificate", FromCertificate},
    {"external-secrets.io", "ExternalSecret", FromExternalSecret},
    {"bitnami.com", "SealedSecret", FromSealedSecret},
    {"", "Secret", FromAnnotatedSecret},
};

const Declarer* FindDeclarer(const std::string& api_version, const std::string& kind) {
  std::string group = GroupOf(api_version);
  for (const Declarer& declarer : kDeclarers) {
    if (group == declarer.group && kind == declarer.kind) return &declarer;
  }
  return nullptr;
}

}  // namespace

bool MayDeclareRotation(const std::string& api_version, const std::string& kind) {
  return FindDeclarer(api_version, kind) != nullptr;
}

std::optional<DeclaredRotation> ReadDeclaredRotation(const Document& doc,
                                                     const std::string& default_namespace) {
  if (doc.shape() != Document::Shape::kObject) return std::nullopt;
  const Declarer* declarer = FindDeclarer(doc.api_version(), doc.kind());
  if (declarer == nullptr) return std::nullopt;
  std::string name_space = doc.NamespaceOr(default_namespace);
  Declared declared = declarer->read(doc, name_space);
  if (declared.secret.empty()) return std::nullopt;
  return DeclaredRotation{SourceId{SourceKind::kSecret, name_space, declared.secret},
                          Rotation{declared.controller, doc.Locate()}};
}

RuntimeSources::RuntimeSources(const std::vector<Document>& documents,
                               const std::vector<std::string>& configured) {
  for (const Document& doc : documents) {
    const DocumentFacts* facts = doc.facts();
    if (facts == nullptr || !facts->rotation) continue;
    declared_[facts->rotation->secret] = facts->rotation->rotation;
  }
  for (const std::string& entry : configured) {
    std::string key = entry.find('/') == std::string::npos ? "secret/" + entry : entry;
    configured_[key] = Rotation{"the config file's runtimeSources (" + entry + ")", Location{}};
  }
}

const Rotation* RuntimeSources::Find(const SourceId& id) const {
  auto declared = declared_.find(id);
  if (declared != declared_.end()) return &declared->second;
  auto configured = configured_.find(std::string(SourceKindSlug(id.kind)) + "/" + id.name);
  return configured == configured_.end() ? nullptr : &configured->second;
}

}  // namespace rollcall
