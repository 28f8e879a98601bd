#include "rollcall/previous/release.h"

#include <tuple>

#include "rollcall/input_error.h"
#include "rollcall/object_names.h"
#include "rollcall/process.h"
#include "rollcall/regular_file.h"

namespace rollcall {

bool ObjectKey::operator<(const ObjectKey& other) const {
  return std::tie(group, kind, name_space, name) <
         std::tie(other.group, other.kind, other.name_space, other.name);
}

namespace {

std::string GroupOf(const std::string& api_version) {
  auto slash = api_version.find('/');
  return slash == std::string::npos ? "" : api_version.substr(0, slash);
}

}  // namespace

ObjectKey KeyOf(const Document& doc, const std::string& default_namespace) {
  return ObjectKey{GroupOf(doc.api_version()), doc.kind(), doc.NamespaceOr(default_namespace),
                   doc.name()};
}

ObjectKey KeyOf(const Consumer& consumer) {
  return ObjectKey{GroupOf(consumer.api_version()), consumer.kind(), consumer.name_space,
                   consumer.name()};
}

PreviousRelease::PreviousRelease(InputBytes bytes, std::string origin,
                                 const std::string& default_namespace, const Limits& limits)
    : stream_(std::make_unique<Stream>(std::move(bytes), std::move(origin))),
      documents_(ParseStream(*stream_, limits)) {
  for (const Document& doc : documents_) {
    if (doc.shape() == Document::Shape::kObject) index_[KeyOf(doc, default_namespace)] = &doc;
  }
  model_ = BuildModel(documents_, {}, default_namespace);
}

const Document* PreviousRelease::Find(const ObjectKey& key) const {
  auto found = index_.find(key);
  return found == index_.end() ? nullptr : found->second;
}

std::unique_ptr<PreviousRelease> LoadPreviousFile(const std::string& path,
                                                  const std::string& default_namespace,
                                                  const Limits& limits) {
  RegularFileRead how = RegularFileRead::Input("the previous release", limits.max_input_bytes);
  return std::make_unique<PreviousRelease>(ReadRegularFileBytes(path, path, how), path,
                                           default_namespace, limits);
}

std::unique_ptr<PreviousRelease> LoadPreviousRelease(const std::string& helm,
                                                     const std::string& release,
                                                     const std::string& name_space,
                                                     const Limits& limits) {
  std::string origin = "helm get manifest " + release;
  // The CLI refuses both with a usage error first; checked here so that no caller
  // can hand helm something that reads as an option.
  for (const std::optional<std::string>& problem :
       {HelmReleaseNameProblem(release), NamespaceNameProblem(name_space)}) {
    if (problem) throw InputError(Location{origin, 0, 0, 0}, *problem);
  }
  ProcessOutput got =
      RunProgram({helm, "get", "manifest", "--namespace=" + name_space, "--", release},
                 limits.max_input_bytes, origin);
  if (got.exit_code == 0) {
    return std::make_unique<PreviousRelease>(InputBytes(std::move(got.out)), origin, name_space,
                                             limits);
  }
  if (got.err.find("release: not found") != std::string::npos) {
    return std::make_unique<PreviousRelease>();  // a first install
  }
  std::string message = got.ErrorText();
  if (message.empty()) message = "exit " + std::to_string(got.exit_code);
  throw InputError(Location{origin, 0, 0, 0}, "cannot read the previous release (" + message +
                                                  "); refusing to treat it as a first install");
}

}  // namespace rollcall
