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

// The sets made so far, and the lock on them. Never destroyed: a KeySet may be read
// while the process exits. A set's elements never move.
struct Table {
  std::mutex mutex;
  std::set<std::vector<Name>, ByText> sets;
};

Table& Sets() {
  static auto* table = new Table();
  return *table;
}

}  // namespace

KeySet::KeySet(std::vector<Name> keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  keys.shrink_to_fit();
  Table& table = Sets();
  std::lock_guard<std::mutex> lock(table.mutex);
  keys_ = &*table.sets.insert(std::move(keys)).first;
}

void ForgetKeySets() {
  Table& table = Sets();
  std::lock_guard<std::mutex> lock(table.mutex);
  table.sets.clear();
}

}  // namespace rollcall
