// What a deploy will do to each consumer, compared with the previous release:
// rolled (and which sources changed), unchanged, new, removed; for Jobs also
// renamed, kept (a run-once Job that already ran) and refused (a kept Job whose
// immutable template changed). It never says rolled when nothing changed: the whole point
// is a deploy that cannot report success while changing nothing.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "rollcall/analysis.h"
#include "rollcall/index_iterator.h"
#include "rollcall/previous/release.h"
#include "rollcall/template_hash.h"

namespace rollcall {

enum class RolloutStatus : std::uint8_t {
  kNew,
  kRolled,
  kUnchanged,
  kRemoved,
  kRenamed,
  kAlreadyRan,  // a run-once Job that ran: written back unchanged
  kRefused,     // a Job whose immutable template changed: the API server refuses it
};
const char* RolloutStatusName(RolloutStatus status);  // "new", "rolled", …, "kept", "refused"

// One consumer's line of the rollout.
struct RolloutEntry {
  Name kind, name_space, name;  // the object, with the name as rendered
  Name previous;                // renamed: the name in the previous release
  RolloutStatus status = RolloutStatus::kNew;

  // Rolled or renamed: the sources whose content changed ("secret/x").
  const std::vector<std::string>& changed() const;
  void set_changed(std::vector<std::string> sources);

  std::string Object() const;  // "Deployment ns/name"

 private:
  std::shared_ptr<const std::vector<std::string>> changed_;  // null when none
};

// The entries of every consumer, in stream order, then those of the previous
// release's consumers that are gone. A consumer that is new under its own name
// (every one of a first install) is told by the consumer itself rather than held:
// a large stream's entries outlived its analysis's other records, 32 bytes each
// (docs/performance.md). Each entry is made as it is read.
class Rollout {
 public:
  Rollout() = default;

  std::size_t size() const { return consumers_count_ + after_.size(); }
  bool empty() const { return size() == 0; }
  IndexIterator<const Rollout, RolloutEntry> begin() const { return {this, 0}; }
  IndexIterator<const Rollout, RolloutEntry> end() const { return {this, size()}; }
  RolloutEntry At(std::size_t index) const;  // made as it is read
  void clear() { *this = Rollout(); }
  // Makes and holds every entry, so that the rollout outlives the consumers.
  void Keep();

 private:
  friend class RolloutComparison;

  const OwnedList<Consumer>* consumers_ = nullptr;  // whose entries these are; null: none
  std::size_t consumers_count_ = 0;                 // how many of them are read
  // The consumers' entries they do not tell themselves, by index, in order.
  std::vector<std::pair<std::size_t, RolloutEntry>> held_;
  std::vector<RolloutEntry> after_;  // the gone consumers' entries, or every one (Keep)
};

// A consumer as render wrote it.
struct RenderedConsumer {
  const Consumer* consumer = nullptr;
  Name name;  // after a rename
  // The config hash it carries ("" when it reads nothing rollcall knows); only set
  // when there is a previous release to compare with.
  std::string config_hash;
  bool dropped = false;  // a run-once Job that already ran: the previous one written back
};

// Compares each rendered consumer with the previous release (null: a first
// install, where every consumer is new) as render plans it, so that what it
// planned need not be held; then lists the previous release's consumers that are
// gone.
class RolloutComparison {
 public:
  // `analysis` and `previous` must outlive the comparison.
  RolloutComparison(const Analysis& analysis, const PreviousRelease* previous);

  // The entry for one consumer: every consumer of the analysis's model, in order.
  void Add(const RenderedConsumer& item);
  // The entries added, then those of the previous release's consumers never matched;
  // it reads the model's consumers, and is read while they live (or Keep()).
  Rollout Finish() &&;

 private:
  const Analysis& analysis_;
  const Model& before_;
  Rollout rollout_;
  std::set<const Consumer*> matched_;            // previous consumers still there
  std::map<ObjectKey, const Consumer*> by_key_;  // previous consumers, looked up once each
};

// "Deployment ns/name: rolled (changed: secret/a, secret/b)"
std::string FormatRollout(const RolloutEntry& entry);

// The rollout as render says it on stderr and in its text report: a line counting the
// entries by status ("1 rolled, 3 unchanged, 2 new"), then a FormatRollout line for each
// entry that is neither new nor unchanged. A line a workload made every render a CI log
// of noise; what rolls, is renamed, removed, kept or refused is what a reader looks
// for. The JSON report keeps every entry. Empty for an empty rollout.
std::vector<std::string> RolloutLines(const Rollout& rollout);

}  // namespace rollcall
