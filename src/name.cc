#include "rollcall/name.h"

#include <array>
#include <deque>
#include <mutex>

#include "rollcall/slot_index.h"

namespace rollcall {
namespace {

// One part of the table, with a lock of its own: documents are parsed on every
// hardware thread, and each interns its names as it is read. Its index is 4 bytes a
// slot, at most half full (slot_index.h): a stream of a million one-line ConfigMaps
// interns a million names, and 8-byte slots with a part of the hash in each took
// about 17 bytes a name (docs/performance.md).
class Shard {
 public:
  const std::string* Intern(std::string_view text, std::size_t hash) {
    std::lock_guard<std::mutex> lock(mutex_);
    index_.MakeRoom(texts_.size(), [&](std::size_t place) {
      return std::hash<std::string_view>()(texts_[place]);
    });
    const std::size_t slot =
        index_.Find(hash, [&](std::size_t place) { return texts_[place] == text; });
    if (!index_.empty(slot)) return &texts_[index_.place(slot)];
    texts_.emplace_back(text);
    index_.Set(slot, texts_.size() - 1);
    return &texts_.back();
  }

  std::size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return texts_.size();
  }

  void Clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::deque<std::string>().swap(texts_);
    index_.Clear();
  }

 private:
  std::mutex mutex_;
  std::deque<std::string> texts_;  // a deque: its elements never move
  SlotIndex index_;                // of texts_
};

constexpr std::size_t kShards = 16;

std::array<Shard, kShards>& Shards() {
  // Never destroyed: a Name may be read while the process exits.
  static auto* shards = new std::array<Shard, kShards>();
  return *shards;
}

const std::string& Empty() {
  static const auto* empty = new std::string();
  return *empty;
}

}  // namespace

Name::Name() : text_(&Empty()) {}

Name::Name(std::string_view text) {
  if (text.empty()) {
    text_ = &Empty();
    return;
  }
  std::size_t hash = std::hash<std::string_view>()(text);
  // The shard from the hash's high bits, the slot from its low bits.
  text_ = Shards()[(hash >> 56) % kShards].Intern(text, hash);
}

void ForgetNames() {
  for (Shard& shard : Shards()) shard.Clear();
}

std::size_t InternedNames() {
  std::size_t count = 0;
  for (Shard& shard : Shards()) count += shard.size();
  return count;
}

}  // namespace rollcall
