// The keys of a source that a reference reads: every key, or a sorted set of them.
//
// Four bytes, as a Name is: the sets are held once for the process (a stream's
// references read the same few sets of keys over and over), and a large stream has
// millions of references (docs/performance.md); a handle is a set's number in the
// table. Read like the
// std::optional<std::set<std::string>> it replaced: empty means every key.
#pragma once

#include <cstdint>
#include <vector>

#include "rollcall/name.h"

namespace rollcall {

class KeySet {
 public:
  KeySet() = default;  // every key
  // These keys (sorted, each once), however many times and in whatever order given.
  explicit KeySet(std::vector<Name> keys);
  static KeySet Of(const Name& key) { return KeySet(std::vector<Name>{key}); }

  // True when the reference reads some keys only.
  explicit operator bool() const { return handle_ != 0; }
  const std::vector<Name>& operator*() const { return Keys(); }
  const std::vector<Name>* operator->() const { return &Keys(); }

  // The same keys are the same set: equality is one comparison.
  bool operator==(const KeySet& other) const { return handle_ == other.handle_; }
  bool operator!=(const KeySet& other) const { return handle_ != other.handle_; }

 private:
  const std::vector<Name>& Keys() const;  // only when some

  std::uint32_t handle_ = 0;  // 0: every key; else 1 + the set's number
};

// Empties the table of key sets, as ForgetNames does the names' (and before it):
// only between two inputs of a process that runs many, when no KeySet made since the
// last call is still held.
void ForgetKeySets();

}  // namespace rollcall
