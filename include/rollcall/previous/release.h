// The previous release: what `helm get manifest RELEASE` prints, read from a file
// (--previous) or by running helm (--previous-release). It tells which run-once
// Jobs already ran, which fields would be refused as immutable, and whether each
// consumer rolls.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rollcall/document.h"
#include "rollcall/limits.h"
#include "rollcall/model.h"

namespace rollcall {

// Identifies an object across releases: API group (not version), kind, namespace, name.
struct ObjectKey {
  std::string group, kind, name_space, name;
  bool operator<(const ObjectKey& other) const;
};
ObjectKey KeyOf(const Document& doc, const std::string& default_namespace);
// A consumer's, which may be an item of a List document.
ObjectKey KeyOf(const Consumer& consumer);

class PreviousRelease {
 public:
  // An empty release: a first install.
  PreviousRelease() = default;
  PreviousRelease(InputBytes bytes, std::string origin, const std::string& default_namespace,
                  const Limits& limits);
  PreviousRelease(const PreviousRelease&) = delete;
  PreviousRelease& operator=(const PreviousRelease&) = delete;

  bool empty() const { return documents_.empty(); }
  const Document* Find(const ObjectKey& key) const;
  const Model& model() const { return model_; }
  const std::vector<Document>& documents() const { return documents_; }

 private:
  std::unique_ptr<Stream> stream_;
  std::vector<Document> documents_;
  std::map<ObjectKey, const Document*> index_;
  Model model_;
};

// Reads --previous FILE. Throws InputError when it cannot be read or parsed.
std::unique_ptr<PreviousRelease> LoadPreviousFile(const std::string& path,
                                                  const std::string& default_namespace,
                                                  const Limits& limits);

// Runs `helm get manifest --namespace=NS -- NAME`, NAME a valid Helm release name
// and NS a valid namespace (else InputError, before helm runs), its output held to
// limits.max_input_bytes. A release that does not exist is a first install (an
// empty release); any other failure throws InputError with helm's message: never a
// silent first install.
std::unique_ptr<PreviousRelease> LoadPreviousRelease(const std::string& helm,
                                                     const std::string& release,
                                                     const std::string& name_space,
                                                     const Limits& limits);

}  // namespace rollcall
