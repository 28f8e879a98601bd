// Sources rotated by a controller at runtime. Their content cannot be hashed at
// render time, so the only way a rotation reaches a process is a volume without
// subPath and a process that re-reads it.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rollcall/document.h"
#include "rollcall/model.h"

namespace rollcall {

struct Rotation {
  std::string controller;  // "cert-manager Certificate ns/name", "rollcall.dev/rotated-by: x", …
  Location where;
};

// A rotation an object declares, and of which Secret.
struct DeclaredRotation {
  SourceId secret;
  Rotation rotation;
};

// The rotation `doc` declares, if any (read while its tree exists: facts.h).
std::optional<DeclaredRotation> ReadDeclaredRotation(const Document& doc,
                                                     const std::string& default_namespace);

// True for the kinds whose objects can declare a rotation (the cert-manager,
// external-secrets and Sealed Secrets kinds above, and core Secrets): the analysis
// needs their trees.
bool MayDeclareRotation(const std::string& api_version, const std::string& kind);

class RuntimeSources {
 public:
  // Finds rotations declared in the documents: a cert-manager Certificate's
  // spec.secretName, an external-secrets ExternalSecret's target (spec.target.name,
  // default its own name), a Bitnami SealedSecret's name, a Secret annotated
  // rollcall.dev/rotated-by; plus `configured` names from the config file
  // ("secret/name", "configmap/name" or a bare Secret name, in any namespace).
  // Reads the rotations of the documents' facts (facts.h).
  RuntimeSources(const std::vector<Document>& documents,
                 const std::vector<std::string>& configured);

  // The rotation of a source, or nullptr when it is not rotated at runtime.
  const Rotation* Find(const SourceId& id) const;

 private:
  std::map<SourceId, Rotation> declared_;
  std::map<std::string, Rotation> configured_;  // "secret/name" → rotation
};

}  // namespace rollcall
