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
#include <vector>

#include "rollcall/analysis.h"
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

// Names, not strings, and the few sources a rolled entry names held apart: a
// large stream has an entry for each of its tens of thousands of consumers, and
// the entries outlive the analysis (32 bytes each, docs/performance.md).
struct RolloutEntry {
  Name kind, name_space, name;  // the object, with the name as rendered
  Name previous;                // renamed: the name in the previous release
  RolloutStatus status = RolloutStatus::kNew;

  // Rolled or renamed: the sources whose content changed ("secret/x").
  const std::vector<std::string>& changed() const;
  void set_changed(std::vector<std::string> sources);

  std::string Object() const;  // "Deployment ns/name"

 private:
  std::unique_ptr<const std::vector<std::string>> changed_;  // null when none
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

  // The entry for one consumer, in stream order.
  void Add(const RenderedConsumer& item);
  // The entries added, then those of the previous release's consumers never matched.
  std::vector<RolloutEntry> Finish() &&;

 private:
  const Analysis& analysis_;
  const Model& before_;
  std::vector<RolloutEntry> entries_;
  std::set<const Consumer*> matched_;            // previous consumers still there
  std::map<ObjectKey, const Consumer*> by_key_;  // previous consumers, looked up once each
};

// "Deployment ns/name: rolled (changed: secret/a, secret/b)"
std::string FormatRollout(const RolloutEntry& entry);

}  // namespace rollcall
