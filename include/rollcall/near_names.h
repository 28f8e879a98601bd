// "Did you mean": the source an unresolved reference may have meant. A chart that
// creates `oauth2-proxy-google` and mounts `oauth2-proxy-creds-google` starts no pod;
// naming the near namesake turns "unresolved" into the fix.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rollcall/model.h"

namespace rollcall {

// Edits (insert, delete, replace one byte) that turn `a` into `b`.
std::size_t EditDistance(std::string_view a, std::string_view b);

// The word of `words` the fewest edits from `word` (the first among equals), if at
// most `most` edits; "" otherwise. For "did you mean" on commands and options.
std::string NearestWord(std::string_view word, const std::vector<std::string>& words,
                        std::size_t most);

// The sources of a model, indexed to answer which one an unresolved reference most
// likely meant. Built once per run: a large stream has many sources and many
// references to ask about.
class NearNames {
 public:
  explicit NearNames(const Model& model);

  // One of the same kind with the same name in another namespace, else those of the
  // same kind and namespace whose name is one hyphen-separated part more or fewer
  // (two or more parts shared: "x-google" for "x-creds-google") or at most max(2, a
  // quarter of the longer name) edits away, every one of the nearest: first those
  // ending in the wanted name's last part (what tells its variant apart: "google"),
  // then in id order. A source whose name `wanted` extends by trailing parts is never
  // one ("x-core" for "x-core-existing"): that is how a user names a Secret of their
  // own after the chart's (an existingSecret), not a typo; nor is one with a part
  // wholly another ("x-core-tls" for "x-core-mine"). Empty when none is.
  const std::vector<const Source*>& Find(const SourceId& wanted) const;

 private:
  std::vector<const Source*> Search(const SourceId& wanted) const;

  mutable std::map<SourceId, std::vector<const Source*>> answers_;
  // (kind, name) → the first source of that name, in id order.
  std::map<std::pair<SourceKind, Name>, const Source*> by_name_;
  // (kind, namespace) → its sources by name length, then id.
  std::map<std::pair<SourceKind, Name>, std::vector<const Source*>> by_namespace_;
};

}  // namespace rollcall
