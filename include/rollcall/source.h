// Sources: Secrets and ConfigMaps, what identifies one and what rollcall knows of
// its content and of where it is defined.
#pragma once

#include <cstdint>
#include <string>

#include "rollcall/location.h"
#include "rollcall/name.h"
#include "rollcall/source_entries.h"
#include "rollcall/stream.h"

namespace rollcall {

class Document;

enum class SourceKind : std::uint8_t { kSecret, kConfigMap };

// "secret" / "configmap", as written in rollcall.dev/config-sources.
const char* SourceKindSlug(SourceKind kind);
// "Secret" / "ConfigMap", as Kubernetes spells the kind.
const char* SourceKindName(SourceKind kind);

struct SourceId {
  SourceKind kind = SourceKind::kSecret;
  Name name_space;
  Name name;

  bool operator<(const SourceId& other) const;
  bool operator==(const SourceId& other) const;
  std::string Describe() const;  // "Secret ns/name"
  std::string Path() const;      // "secret/ns/name"
};

// A Secret or ConfigMap whose content rollcall knows.
struct Source {
  SourceId id;
  // Helm 4's template annotation when the document has no "# Source:" line: the
  // origin a location names (beside the 12-byte id, so that a Source is 40 bytes).
  Name template_annotation;
  // Key → the bytes the process reads: Secret data base64-decoded with stringData
  // over it, ConfigMap data and base64-decoded binaryData.
  SourceEntries entries;
  // Where it is defined, once read from a stream (none for a source from --state
  // or a lookup): the stream and the document's index in it (1-based), and where in
  // that document the object starts. A document that only defines a source keeps no
  // record of its own (facts.h's SourceTaker).
  const Stream* stream = nullptr;
  std::uint32_t span = 0;
  std::uint32_t pos = 0;

  // Records that `doc` defines it (its `pos` in `doc` is set where it is read).
  void DefinedIn(const Document& doc);
  // Where the object starts, as Document::LocateAt says; unknown (an empty
  // Location) without a stream.
  Location Where() const;
};

}  // namespace rollcall
