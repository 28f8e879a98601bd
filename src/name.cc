#include "rollcall/name.h"

#include <array>
#include <cstdint>
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
    auto check = static_cast<std::uint32_t>(hash >> 32);
    std::lock_guard<std::mutex> lock(mutex_);
    if ((texts_.size() + 1) * 4 > slots_.size() * 3) Grow();
    std::size_t mask = slots_.size() - 1;
    for (std::size_t at = hash & mask;; at = (at + 1) & mask) {
      Slot& slot = slots_[at];
      if (slot.text == 0) {
        texts_.emplace_back(text);
        slot = Slot{check, static_cast<std::uint32_t>(texts_.size())};
        return &texts_.back();
      }
      const std::string& held = texts_[slot.text - 1];
      if (slot.check == check && held == text) return &held;
    }
  }

  std::size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return texts_.size();
  }

  void Clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::deque<std::string>().swap(texts_);
    std::vector<Slot>().swap(slots_);
  }

 private:
  // 8 bytes a slot: a large stream interns a hundred thousand names.
  struct Slot {
    std::uint32_t check = 0;  // the hash's high bits, to skip most comparisons
    std::uint32_t text = 0;   // 1 + the text's index in texts_; 0: empty
  };

  // Open addressing with linear probing, at most three quarters full.
  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
    std::size_t mask = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.text == 0) continue;
      std::size_t at = std::hash<std::string_view>()(texts_[slot.text - 1]) & mask;
      while (slots_[at].text != 0) at = (at + 1) & mask;
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

void ForgetNames() {
  for (Shard& shard : Shards()) shard.Clear();
}

std::size_t InternedNames() {
  std::size_t count = 0;
  for (Shard& shard : Shards()) count += shard.size();
  return count;
}

}  // namespace rollcall
