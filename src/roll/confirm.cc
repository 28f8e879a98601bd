#include "rollcall/roll/confirm.h"

#include <map>
#include <set>
#include <string>

#include "rollcall/input_error.h"
#include "rollcall/roll/plan.h"

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

// What the cluster holds of `source` otherwise than planned, or "" when it holds it so.
std::string Difference(const Source& planned, const Source* found) {
  if (found == nullptr) return "the cluster holds no " + planned.id.Describe();
  std::set<std::string> keys = ChangedKeys(std::nullopt, planned.entries, found->entries);
  if (keys.empty()) return "";
  return "the cluster holds " + planned.id.Describe() + " with other content than roll planned " +
         "with (" + std::to_string(keys.size()) +
         (keys.size() == 1 ? " key differs: " : " keys differ: ") + KeyList(keys) + ")";
}

}  // namespace

void ConfirmApplied(const std::vector<Source>& planned, const SourceLookup& lookup) {
  // The last definition of each source is the one kubectl applied last.
  std::map<SourceId, const Source*> last;
  for (const Source& source : planned) last[source.id] = &source;
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
    if (last[source.id] != &source) continue;
    auto in_cluster = held.find(source.id);
    std::string difference =
        Difference(source, in_cluster == held.end() ? nullptr : in_cluster->second);
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
