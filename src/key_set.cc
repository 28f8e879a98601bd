#include "rollcall/key_set.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace rollcall {
namespace {

// Names order by text, and so do sets of them.
struct ByText {
  bool operator()(const std::vector<Name>& a, const std::vector<Name>& b) const {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }
};

// Where each set is, by number: a fixed directory of blocks that never move, so that
// a KeySet is read with no lock while the table adds sets (as a Name is). In static
// storage; the entries of blocks never made are never touched.
constexpr std::size_t kBlockBits = 10;
constexpr std::size_t kBlock = std::size_t{1} << kBlockBits;
constexpr std::size_t kMaxBlocks = std::size_t{1} << 14;  // 16 million sets
const std::vector<Name>* const* g_blocks[kMaxBlocks];

// The sets made so far, each with its number, and the lock on them. Never
// destroyed: a KeySet may be read while the process exits. A set's elements never
// move.
struct Table {
  std::mutex mutex;
  std::map<std::vector<Name>, std::uint32_t, ByText> sets;
  std::vector<std::unique_ptr<const std::vector<Name>*[]>> blocks;
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
  const auto number = static_cast<std::uint32_t>(table.sets.size());
  auto [it, added] = table.sets.emplace(std::move(keys), number);
  if (added) {
    const std::size_t block = number >> kBlockBits;
    if (block >= kMaxBlocks) throw std::length_error("rollcall: over 16 million sets of keys");
    if (block == table.blocks.size()) {
      table.blocks.emplace_back(new const std::vector<Name>*[kBlock]);
      g_blocks[block] = table.blocks.back().get();
    }
    table.blocks[block][number & (kBlock - 1)] = &it->first;
  }
  handle_ = it->second + 1;
}

const std::vector<Name>& KeySet::Keys() const {
  const std::uint32_t number = handle_ - 1;
  return *g_blocks[number >> kBlockBits][number & (kBlock - 1)];
}

void ForgetKeySets() {
  Table& table = Sets();
  std::lock_guard<std::mutex> lock(table.mutex);
  table.sets.clear();
  std::fill(g_blocks, g_blocks + table.blocks.size(), nullptr);
  table.blocks.clear();
}

}  // namespace rollcall
