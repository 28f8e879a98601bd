#include "rollcall/name.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "rollcall/slot_index.h"

namespace rollcall {
namespace {

// A handle: the part of the table (its high 4 bits), then 1 + the text's offset in
// that part's pages over 4 (0 is the empty text). So a part holds up to 1 GiB of texts.
constexpr unsigned kShardBits = 4;
constexpr std::size_t kShards = std::size_t{1} << kShardBits;
constexpr unsigned kPlaceBits = 32 - kShardBits;
constexpr std::uint32_t kPlaceMask = (std::uint32_t{1} << kPlaceBits) - 1;
constexpr std::size_t kPageBits = 14;
constexpr std::size_t kPage = std::size_t{1} << kPageBits;
constexpr std::size_t kMaxPages = (std::size_t{kPlaceMask} * 4) >> kPageBits;

// Where each part's pages are: a fixed directory, so that a Name is read with no
// lock while its part adds texts (a growing vector would move under the reader). In
// static storage (8 MiB of address space): the entries of pages never used are never
// touched, so cost nothing.
char* g_pages[kShards][kMaxPages];

// Where a part of the table keeps its texts: each as its 4-byte size, its bytes and
// a NUL, from a 4-byte boundary, one after another in pages that never move. A text
// is 8 to 11 bytes more than its length, where a std::string of its own was 32 (and
// an allocation past 15 bytes). Pages are 16 KiB, allocated in blocks of 1, 2, 4 …
// up to 16 of them, so that a part that holds a few names holds 16 KiB, not more
// (a stream of 20 wide ConfigMaps interns a few dozen). A text longer than a block
// gets a block of its own. The index is rebuilt by walking the pages.
class TextPages {
 public:
  explicit TextPages(char** pages) : pages_(pages) {}

  // Where `text` now is.
  std::size_t Add(std::string_view text) {
    const std::size_t need = Footprint(text.size());
    if (end_ % kPage != 0 && end_ % kPage + need > kPage) {
      Store(end_, kRestOfPageEmpty);  // the walk skips to the next page
      end_ += kPage - end_ % kPage;
    }
    if (end_ + need > used_pages_ * kPage) Grow(need);
    const std::size_t at = end_;
    Store(at, static_cast<std::uint32_t>(text.size()));
    char* bytes = Address(at) + 4;
    std::memcpy(bytes, text.data(), text.size());
    bytes[text.size()] = '\0';
    end_ += need;
    return at;
  }

  std::string_view View(std::size_t at) const { return {Address(at) + 4, Size(at)}; }

  // Calls visit(at) with each text's offset, in the order they were added.
  template <typename Visit>
  void ForEach(const Visit& visit) const {
    for (std::size_t at = 0; at < end_;) {
      const std::uint32_t size = Size(at);
      if (size == kRestOfPageEmpty) {
        at += kPage - at % kPage;
        continue;
      }
      visit(at);
      at += Footprint(size);
    }
  }

  void Clear() {
    std::fill(pages_, pages_ + used_pages_, nullptr);
    blocks_.clear();
    used_pages_ = 0;
    end_ = 0;
  }

 private:
  static constexpr std::uint32_t kRestOfPageEmpty = 0xFFFFFFFF;

  // The size, the text, its NUL, to the next 4-byte boundary.
  static std::size_t Footprint(std::size_t size) { return (4 + size + 1 + 3) & ~std::size_t{3}; }

  // At a page's start (Add skipped the rest of the one before): the pages of the
  // last block that a longer text does not fit in are left, marked for the walk.
  void Grow(std::size_t need) {
    for (std::size_t at = end_; at < used_pages_ * kPage; at += kPage) {
      Store(at, kRestOfPageEmpty);
    }
    const std::size_t doubling = std::size_t{1} << std::min<std::size_t>(blocks_.size(), 4);
    const std::size_t pages = std::max((need + kPage - 1) / kPage, doubling);
    if (used_pages_ + pages > kMaxPages) {
      throw std::length_error("rollcall: over 1 GiB of names in one part of the name table");
    }
    // Not zeroed: a page is written before it is read, and untouched bytes cost no memory.
    blocks_.emplace_back(new char[pages * kPage]);
    for (std::size_t page = 0; page < pages; ++page) {
      pages_[used_pages_++] = blocks_.back().get() + page * kPage;
    }
    end_ = (used_pages_ - pages) * kPage;  // a new block starts at a page
  }

  char* Address(std::size_t at) const { return pages_[at >> kPageBits] + (at & (kPage - 1)); }
  std::uint32_t Size(std::size_t at) const {
    std::uint32_t size = 0;
    std::memcpy(&size, Address(at), sizeof size);
    return size;
  }
  void Store(std::size_t at, std::uint32_t size) { std::memcpy(Address(at), &size, sizeof size); }

  char** pages_;                                 // this part's row of g_pages
  std::vector<std::unique_ptr<char[]>> blocks_;  // what was allocated
  std::size_t used_pages_ = 0;
  std::size_t end_ = 0;  // where the next text goes
};

// One part of the table, with a lock of its own: documents are parsed on every
// hardware thread, and each interns its names as it is read. Its index is 4 bytes a
// slot, at most half full (slot_index.h): a stream of a million one-line ConfigMaps
// interns a million names, and 8-byte slots with a part of the hash in each took
// about 17 bytes a name (docs/performance.md). A slot holds a text's offset over 4.
class Shard {
 public:
  explicit Shard(std::size_t number)
      : number_(static_cast<std::uint32_t>(number)), texts_(g_pages[number]) {}

  std::uint32_t Intern(std::string_view text, std::size_t hash) {
    std::lock_guard<std::mutex> lock(mutex_);
    index_.MakeRoom(
        count_, [&](const auto& visit) { texts_.ForEach([&](std::size_t at) { visit(at / 4); }); },
        [&](std::size_t place) { return std::hash<std::string_view>()(texts_.View(place * 4)); });
    std::size_t slot =
        index_.Find(hash, [&](std::size_t place) { return texts_.View(place * 4) == text; });
    if (index_.empty(slot)) {
      index_.Set(slot, texts_.Add(text) / 4);
      ++count_;
    }
    return (number_ << kPlaceBits) | static_cast<std::uint32_t>(index_.place(slot) + 1);
  }

  std::size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return count_;
  }

  void Clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    texts_.Clear();
    index_.Clear();
    count_ = 0;
  }

 private:
  std::mutex mutex_;
  const std::uint32_t number_;
  TextPages texts_;
  std::size_t count_ = 0;
  SlotIndex index_;  // of texts_, by offset / 4
};

std::array<Shard, kShards>& Shards() {
  // Never destroyed: a Name may be read while the process exits.
  static auto* shards = [] {
    return new std::array<Shard, kShards>{
        Shard(0), Shard(1), Shard(2),  Shard(3),  Shard(4),  Shard(5),  Shard(6),  Shard(7),
        Shard(8), Shard(9), Shard(10), Shard(11), Shard(12), Shard(13), Shard(14), Shard(15)};
  }();
  return *shards;
}

// The empty text: a size of 0 and a NUL.
const char* Empty() {
  alignas(4) static const char empty[8] = {};
  return empty + 4;
}

}  // namespace

Name::Name(std::string_view text) {
  if (text.empty()) return;
  std::size_t hash = std::hash<std::string_view>()(text);
  // The part from the hash's high bits, the slot from its low bits.
  handle_ = Shards()[(hash >> 56) % kShards].Intern(text, hash);
}

const char* Name::c_str() const {
  if (handle_ == 0) return Empty();
  const std::size_t at = std::size_t{(handle_ & kPlaceMask) - 1} * 4;
  return g_pages[handle_ >> kPlaceBits][at >> kPageBits] + (at & (kPage - 1)) + 4;
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
