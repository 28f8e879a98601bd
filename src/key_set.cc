#include "rollcall/key_set.h"

#include <algorithm>
#include <mutex>
#include <set>

namespace rollcall {
namespace {

// Names order by text, and so do sets of them.
struct ByText {
  bool operator()(const std::vector<Name>& a, const std::vector<Name>& b) const {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }
};

}  // namespace

KeySet::KeySet(std::vector<Name> keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  keys.shrink_to_fit();
  // Never destroyed: a KeySet may be read while the process exits. A set's
  // elements never move.
  static auto* sets = new std::set<std::vector<Name>, ByText>();
  static auto* mutex = new std::mutex();
  std::lock_guard<std::mutex> lock(*mutex);
  keys_ = &*sets->insert(std::move(keys)).first;
}

}  // namespace rollcall
