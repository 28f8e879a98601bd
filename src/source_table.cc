#include "rollcall/source_table.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace rollcall {
namespace {

// Orders places (indexes into `sources`) by their sources' ids.
auto ById(const SourceDefinitions& sources) {
  return [&sources](std::uint32_t left, std::uint32_t right) {
    return sources[left].id < sources[right].id;
  };
}

// Sorts `places` by id, those of one id in the order they were added. Places grow
// in that order, so a sort by (id, place) is that stable sort without the buffer
// std::stable_sort takes: half the places again, 2 MB for a million sources.
void SortById(const SourceDefinitions& sources, std::vector<std::uint32_t>& places) {
  const auto by_id = ById(sources);
  std::sort(places.begin(), places.end(), [&](std::uint32_t left, std::uint32_t right) {
    return by_id(left, right) || (sources[left].id == sources[right].id && left < right);
  });
}

// Of `places` sorted by SortById, one of each id: the last added (keep_last) or the
// first.
void KeepOnePerId(const SourceDefinitions& sources, std::vector<std::uint32_t>& places,
                  bool keep_last) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < places.size(); ++i) {
    bool same_as_before = kept > 0 && sources[places[kept - 1]].id == sources[places[i]].id;
    if (!same_as_before) {
      places[kept++] = places[i];
    } else if (keep_last) {
      places[kept - 1] = places[i];
    }
  }
  places.resize(kept);
}

}  // namespace

SourceTable SourceTable::OfDefinitions(
    SourceDefinitions definitions,
    const std::function<void(const Source& again, const Source& before)>& on_repeat) {
  SourceTable table;
  table.sources_ = std::move(definitions);
  const SourceDefinitions& sources = table.sources_;
  std::vector<std::uint32_t>& places = table.places_;
  places.resize(sources.size());
  std::iota(places.begin(), places.end(), 0);
  SortById(sources, places);
  if (on_repeat) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> repeats;  // (again, before)
    for (std::size_t i = 1; i < places.size(); ++i) {
      if (sources[places[i]].id == sources[places[i - 1]].id) {
        repeats.emplace_back(places[i], places[i - 1]);
      }
    }
    std::sort(repeats.begin(), repeats.end());
    for (const auto& [again, before] : repeats) on_repeat(sources[again], sources[before]);
  }
  KeepOnePerId(sources, places, /*keep_last=*/true);
  places.shrink_to_fit();  // kept for the whole run
  return table;
}

std::size_t SourceTable::Add(std::vector<Source> sources, OnSameId on_same_id) {
  const bool replace = on_same_id == OnSameId::kReplace;
  std::vector<std::uint32_t> fresh;  // ids the table does not have
  for (Source& source : sources) {
    auto known = LowerBound(source.id);
    if (known != places_.end() && sources_[*known].id == source.id) {
      if (!replace) continue;
      sources_.push_back(std::move(source));
      places_[static_cast<std::size_t>(known - places_.cbegin())] =
          static_cast<std::uint32_t>(sources_.size() - 1);
      continue;
    }
    sources_.push_back(std::move(source));
    fresh.push_back(static_cast<std::uint32_t>(sources_.size() - 1));
  }
  SortById(sources_, fresh);
  KeepOnePerId(sources_, fresh, replace);
  const std::size_t middle = places_.size();
  places_.insert(places_.end(), fresh.begin(), fresh.end());
  std::inplace_merge(places_.begin(), places_.begin() + static_cast<std::ptrdiff_t>(middle),
                     places_.end(), ById(sources_));
  return fresh.size();
}

std::vector<std::uint32_t>::const_iterator SourceTable::LowerBound(const SourceId& id) const {
  return std::lower_bound(
      places_.begin(), places_.end(), id,
      [&](std::uint32_t place, const SourceId& key) { return sources_[place].id < key; });
}

const Source* SourceTable::Find(const SourceId& id) const {
  auto found = LowerBound(id);
  return found != places_.end() && sources_[*found].id == id ? &sources_[*found] : nullptr;
}

}  // namespace rollcall
