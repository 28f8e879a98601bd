#include "rollcall/name.h"

#include <array>
#include <deque>
#include <mutex>
#include <vector>

namespace rollcall {
namespace {

// One part of the table, with a lock of its own: documents are parsed on every
// hardware thread, and each interns its names as it is read.
class Shard {
 public:
  const std::string* Intern(std::string_view text, std::size_t hash) {
    std::lock_guard<std::mutex> lock(mutex_);
    if ((texts_.size() + 1) * 2 > slots_.size()) Grow();
    std::size_t mask = slots_.size() - 1;
    for (std::size_t at = hash & mask;; at = (at + 1) & mask) {
      Slot& slot = slots_[at];
      if (slot.text == nullptr) {
        slot = Slot{&texts_.emplace_back(text), hash};
        return slot.text;
      }
      if (slot.hash == hash && *slot.text == text) return slot.text;
    }
  }

  std::size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return texts_.size();
  }

 private:
  struct Slot {
    const std::string* text = nullptr;
    std::size_t hash = 0;
  };

  // Open addressing with linear probing, at most half full.
  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
    std::size_t mask = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.text == nullptr) continue;
      std::size_t at = slot.hash & mask;
      while (slots_[at].text != nullptr) at = (at + 1) & mask;
      slots_[at] = slot;
    }
  }

  std::mutex mutex_;
  std::deque<std::string> texts_;  // a deque: its elements never move
  std::vector<Slot> slots_;
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

std::size_t InternedNames() {
  std::size_t count = 0;
  for (Shard& shard : Shards()) count += shard.size();
  return count;
}

}  // namespace rollcall
