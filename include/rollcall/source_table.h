// The Secrets and ConfigMaps a model knows, found by id.
//
// Every source added stays where it was added (a StableList, whose elements never
// move: a pointer to one is valid for the table's life), and a list of 4-byte
// places sorted by id finds the one of each id. The std::map<SourceId, Source> this
// replaced took a node of 112 bytes a source, the id in it twice, made while the
// documents' facts were freed around it: a stream of a million one-line ConfigMaps
// kept a million of them (docs/performance.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "rollcall/index_iterator.h"
#include "rollcall/source.h"
#include "rollcall/stable_list.h"

namespace rollcall {

// Sources in the order they are defined: a stream's, as ParseStream reads it.
using SourceDefinitions = StableList<Source>;

class SourceTable {
 public:
  using const_iterator = IndexIterator<const SourceTable, const Source&>;

  // Of `definitions`, the last of each id, as applying them in order leaves it.
  // `on_repeat(again, before)` is called for each later definition of an id with
  // the one just before it, in the order of `definitions`.
  static SourceTable OfDefinitions(
      SourceDefinitions definitions,
      const std::function<void(const Source& again, const Source& before)>& on_repeat = nullptr);

  enum class OnSameId { kKeepTable, kReplace };
  // Adds `sources`. One whose id the table has keeps the table's (kKeepTable) or
  // replaces it (kReplace); of those in `sources` with the same id, the first is
  // taken (kKeepTable) or the last (kReplace), as adding one after another would.
  // Returns how many ids the table did not have.
  std::size_t Add(std::vector<Source> sources, OnSameId on_same_id);

  // The source of `id`, or null.
  const Source* Find(const SourceId& id) const;
  bool Contains(const SourceId& id) const { return Find(id) != nullptr; }

  // The sources in id order, one of each id.
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, places_.size()}; }
  std::size_t size() const { return places_.size(); }
  bool empty() const { return places_.empty(); }
  const Source& At(std::size_t i) const { return sources_[places_[i]]; }

 private:
  // The first of places_ whose id is not before `id`.
  std::vector<std::uint32_t>::const_iterator LowerBound(const SourceId& id) const;

  SourceDefinitions sources_;          // as added, those a later one replaced among them
  std::vector<std::uint32_t> places_;  // indexes into sources_, sorted by id, one per id
};

}  // namespace rollcall
