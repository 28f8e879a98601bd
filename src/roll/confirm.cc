#include "rollcall/roll/confirm.h"

#include "rollcall/input_error.h"

namespace rollcall::roll {
namespace {

// "password, username" (at most five, then how many more); printed through
// PrintError, which makes them printable.
std::string KeyList(const std::set<std::string>& keys) {
  constexpr std::size_t kShown = 5;
  std::string out;
  std::size_t shown = 0;
  for (const std::string& key : keys) {
    if (shown == kShown) {
      out += ", and " + std::to_string(keys.size() - kShown) + " more";
      break;
    }
    if (shown++ > 0) out += ", ";
    out += key;
  }
  return out;
}

// What the cluster holds of `source` otherwise than planned, where `read` is read, or
// "" when it holds it so.
std::string Difference(const Source& planned, const std::optional<std::set<std::string>>& read,
                       const Source* found) {
  if (found == nullptr) return "the cluster holds no " + planned.id.Describe();
  std::set<std::string> keys = ChangedKeys(read, planned.entries, found->entries);
  if (keys.empty()) return "";
  return "the cluster holds " + planned.id.Describe() + " with other content than roll planned " +
         "with (" + std::to_string(keys.size()) +
         (keys.size() == 1 ? " key its readers read differs: "
                           : " keys its readers read differ: ") +
         KeyList(keys) + ")";
}

}  // namespace

KeysRead KeysReadBy(const RollPlan& plan, const std::vector<Source>& sources) {
  Model model;
  model.sources.Add(sources, SourceTable::OnSameId::kReplace);
  KeysRead read;
  for (const WorkloadPlan& item : plan.workloads) {
    for (const SourceRead& source_read : ResolveReads(*item.consumer, model, nullptr)) {
      auto [entry, added] = read.try_emplace(source_read.source->id, source_read.keys);
      if (added || !entry->second) continue;
      if (!source_read.keys) {
        entry->second.reset();
      } else {
        entry->second->insert(source_read.keys->begin(), source_read.keys->end());
      }
    }
  }
  return read;
}

void ConfirmApplied(const std::vector<Source>& planned, const KeysRead& read,
                    const SourceLookup& lookup) {
  // The last definition of each source is the one kubectl applied last.
  std::map<SourceId, const Source*> last;
  for (const Source& source : planned) {
    if (read.count(source.id) > 0) last[source.id] = &source;
  }
  if (last.empty()) return;
  std::vector<SourceId> wanted;
  wanted.reserve(last.size());
  for (const auto& [id, source] : last) wanted.push_back(id);
  LookupResult found = lookup(wanted);
  std::map<SourceId, const Source*> held;
  for (const Source& source : found.sources) held[source.id] = &source;

  const Source* first = nullptr;
  std::string first_difference;
  std::size_t differing = 0;
  for (const Source& source : planned) {
    auto defined = last.find(source.id);
    if (defined == last.end() || defined->second != &source) continue;
    auto in_cluster = held.find(source.id);
    std::string difference = Difference(source, read.at(source.id),
                                        in_cluster == held.end() ? nullptr : in_cluster->second);
    if (difference.empty()) continue;
    if (differing++ == 0) {
      first = &source;
      first_difference = std::move(difference);
    }
  }
  if (first == nullptr) return;
  std::string more = differing == 1 ? ""
                                    : " (and " + std::to_string(differing - 1) + " more source" +
                                          (differing == 2 ? "" : "s") + " so)";
  throw InputError(
      first->Where(),
      "after kubectl apply, " + first_difference + more +
          ": nothing was patched, since the hash roll planned would not be the content its "
          "readers get. kubectl keeps keys it did not set, and a webhook, a controller or "
          "another writer may have changed it; run `rollcall roll " +
          SourceKindSlug(first->id.kind) + "/" + first->id.name_space.str() + "/" +
          first->id.name.str() + "` to roll from what the cluster holds");
}

}  // namespace rollcall::roll
