#include "rollcall/near_names.h"

#include <algorithm>
#include <vector>

namespace rollcall {

std::size_t EditDistance(std::string_view a, std::string_view b) {
  // One row of the Wagner–Fischer table at a time.
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string NearestWord(std::string_view word, const std::vector<std::string>& words,
                        std::size_t most) {
  const std::string* nearest = nullptr;
  std::size_t nearest_distance = most + 1;
  for (const std::string& candidate : words) {
    std::size_t distance = EditDistance(word, candidate);
    if (distance < nearest_distance) {
      nearest = &candidate;
      nearest_distance = distance;
    }
  }
  return nearest != nullptr ? *nearest : std::string();
}

namespace {

// A name's parts between hyphens: "oauth2-proxy-creds-google" → 4.
std::vector<std::string_view> Parts(std::string_view name) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    std::size_t dash = name.find('-', start);
    parts.push_back(name.substr(start, dash - start));
    if (dash == std::string_view::npos) return parts;
    start = dash + 1;
  }
}

// Whether one part more or one fewer turns `a` into `b`, with two parts or more
// left as they were: "x-google" for "x-creds-google". One part for another is not
// near ("x-creds" is no typo of "x-google"); a typo within a part is EditDistance's.
bool OnePartApart(std::string_view a, std::string_view b) {
  std::vector<std::string_view> left = Parts(a);
  std::vector<std::string_view> right = Parts(b);
  if (left.size() > right.size()) std::swap(left, right);
  if (right.size() != left.size() + 1 || left.size() < 2) return false;
  std::size_t prefix = 0;
  while (prefix < left.size() && left[prefix] == right[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < left.size() - prefix &&
         left[left.size() - 1 - suffix] == right[right.size() - 1 - suffix]) {
    ++suffix;
  }
  return prefix + suffix == left.size();
}

// Whether a part of `a` is wholly another in `b`, the two having as many parts: "mine"
// for "tls" in "x-core-mine" and "x-core-tls" (a variant of its own, however few its
// letters), where "aut" for "auth" is a typo.
bool ReplacesAPart(std::string_view a, std::string_view b) {
  std::vector<std::string_view> left = Parts(a);
  std::vector<std::string_view> right = Parts(b);
  if (left.size() != right.size()) return false;
  for (std::size_t i = 0; i < left.size(); ++i) {
    if (left[i] == right[i]) continue;
    if (EditDistance(left[i], right[i]) >= std::max(left[i].size(), right[i].size())) return true;
  }
  return false;
}

// Whether `longer` is `name` with trailing parts added: "x-core-existing" of "x-core".
bool Extends(std::string_view longer, std::string_view name) {
  return longer.size() > name.size() + 1 && longer.compare(0, name.size(), name) == 0 &&
         longer[name.size()] == '-';
}

}  // namespace

NearNames::NearNames(const Model& model) {
  for (const Source& source : model.sources) {
    const SourceId& id = source.id;
    by_name_.emplace(std::make_pair(id.kind, id.name), &source);
    by_namespace_[{id.kind, id.name_space}].push_back(&source);
  }
  for (auto& [key, sources] : by_namespace_) {
    std::stable_sort(sources.begin(), sources.end(), [](const Source* a, const Source* b) {
      return a->id.name.view().size() < b->id.name.view().size();
    });
  }
}

const std::vector<const Source*>& NearNames::Find(const SourceId& wanted) const {
  // Many references read the same missing source.
  auto [asked, first] = answers_.try_emplace(wanted);
  if (first) asked->second = Search(wanted);
  return asked->second;
}

std::vector<const Source*> NearNames::Search(const SourceId& wanted) const {
  if (auto same = by_name_.find({wanted.kind, wanted.name}); same != by_name_.end()) {
    if (same->second->id.name_space != wanted.name_space) return {same->second};
  }
  auto found = by_namespace_.find({wanted.kind, wanted.name_space});
  if (found == by_namespace_.end()) return {};
  const std::string_view wanted_name = wanted.name.view();
  const std::size_t size = wanted_name.size();
  std::vector<const Source*> nearest;
  std::size_t nearest_distance = 0;
  for (const Source* source : found->second) {
    std::string_view name = source->id.name.view();
    if (Extends(wanted_name, name)) continue;
    std::size_t distance = 0;
    if (OnePartApart(name, wanted.name.view())) {
      distance = 1;  // as near as a typo
    } else {
      std::size_t longer = std::max(name.size(), size);
      std::size_t most = std::max<std::size_t>(2, longer / 4);
      if (name.size() + most < size || name.size() > size + most) continue;
      distance = EditDistance(name, wanted_name);
      if (distance > most || distance == 0 || ReplacesAPart(name, wanted_name)) continue;
    }
    if (nearest.empty() || distance < nearest_distance) {
      nearest.clear();
      nearest_distance = distance;
    }
    if (distance == nearest_distance) nearest.push_back(source);
  }
  const std::string_view last = Parts(wanted_name).back();
  std::sort(nearest.begin(), nearest.end(), [last](const Source* a, const Source* b) {
    const bool a_shares = Parts(a->id.name.view()).back() == last;
    const bool b_shares = Parts(b->id.name.view()).back() == last;
    if (a_shares != b_shares) return a_shares;
    return a->id < b->id;
  });
  return nearest;
}

}  // namespace rollcall
