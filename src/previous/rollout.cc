#include "rollcall/previous/rollout.h"

#include <algorithm>
#include <stdexcept>

#include "rollcall/hashing.h"
#include "rollcall/jobs.h"
#include "rollcall/render.h"

namespace rollcall {
namespace {

std::string SourceName(const SourceId& id) {
  return std::string(SourceKindSlug(id.kind)) + "/" + id.name;
}

// The sources a consumer reads whose content (the keys it reads) differs from the
// previous release's, or that the previous release did not have.
std::vector<std::string> ChangedSources(const Consumer& consumer, const Model& model,
                                        const Model& before) {
  std::vector<std::string> changed;
  for (const SourceRead& read : ResolveReads(consumer, model, nullptr)) {
    const Source* old = before.sources.Find(read.source->id);
    if (old == nullptr || CanonicalEncoding({read}) != CanonicalEncoding({{old, read.keys}})) {
      changed.push_back(SourceName(read.source->id));
    }
  }
  return changed;
}

// A renamed Job's predecessor: the previous release's Job recorded with the same
// original name.
const Consumer* RenamedFrom(const Consumer& job, const Model& before) {
  std::string base = RecordedJobName(*job.document, job.name());
  for (const Consumer& candidate : before.consumers) {
    if (candidate.kind() != "Job" || candidate.name_space != job.name_space) continue;
    std::string recorded = RecordedJobName(*candidate.document, "");
    if (recorded == base || candidate.name() == base) return &candidate;
  }
  return nullptr;
}

}  // namespace

const char* RolloutStatusName(RolloutStatus status) {
  switch (status) {
    case RolloutStatus::kNew:
      return "new";
    case RolloutStatus::kRolled:
      return "rolled";
    case RolloutStatus::kUnchanged:
      return "unchanged";
    case RolloutStatus::kRemoved:
      return "removed";
    case RolloutStatus::kRenamed:
      return "renamed";
    case RolloutStatus::kAlreadyRan:
      return "kept";
    case RolloutStatus::kRefused:
      return "refused";
  }
  return "?";
}

namespace {
const Model& NoModel() {
  static const Model kNone;
  return kNone;
}

// A consumer's entry, under `name` (as rendered, or as the previous release has it).
RolloutEntry EntryOf(const Consumer& consumer, const Name& name, RolloutStatus status) {
  RolloutEntry entry;
  entry.kind = consumer.kind();
  entry.name_space = consumer.name_space;
  entry.name = name;
  entry.status = status;
  return entry;
}
}  // namespace

RolloutComparison::RolloutComparison(const Analysis& analysis, const PreviousRelease* previous)
    : analysis_(analysis), before_(previous != nullptr ? previous->model() : NoModel()) {
  rollout_.consumers_ = &analysis.model().consumers;
  for (const Consumer& old : before_.consumers) by_key_.emplace(KeyOf(old), &old);
}

void RolloutComparison::Add(const RenderedConsumer& item) {
  const Consumer& consumer = *item.consumer;
  const std::size_t index = rollout_.consumers_count_++;
  if (index >= rollout_.consumers_->size() || &(*rollout_.consumers_)[index] != &consumer) {
    throw std::logic_error("rollcall: a rollout entry out of the consumers' order");
  }
  RolloutEntry entry = EntryOf(consumer, item.name, RolloutStatus::kNew);
  ObjectKey key = KeyOf(consumer);
  key.name = item.name;
  auto found = by_key_.find(key);
  const Consumer* old = found == by_key_.end() ? nullptr : found->second;
  if (item.dropped) {
    entry.status = RolloutStatus::kAlreadyRan;
    if (old != nullptr) matched_.insert(old);
  } else if (old != nullptr) {
    matched_.insert(old);
    bool same = TemplateFingerprint(consumer.pod_template(), item.config_hash) ==
                TemplateFingerprint(old->pod_template(), WrittenConfigHash(*old));
    if (same) {
      entry.status = RolloutStatus::kUnchanged;
    } else if (consumer.role == ConsumerRole::kPlainJob) {
      entry.status = RolloutStatus::kRefused;  // a Job's template cannot change in place
    } else {
      entry.status = RolloutStatus::kRolled;
      entry.set_changed(ChangedSources(consumer, analysis_.model(), before_));
    }
  } else if (const Consumer* predecessor = consumer.job_action == JobAction::kRename
                                               ? RenamedFrom(consumer, before_)
                                               : nullptr) {
    matched_.insert(predecessor);
    entry.status = RolloutStatus::kRenamed;
    entry.previous = predecessor->name();
    entry.set_changed(ChangedSources(consumer, analysis_.model(), before_));
  } else if (entry.name == consumer.name()) {
    return;  // new, and told by the consumer itself (renamed, it is held)
  }
  rollout_.held_.emplace_back(index, std::move(entry));
}

Rollout RolloutComparison::Finish() && {
  for (const Consumer& old : before_.consumers) {
    if (matched_.count(&old) > 0) continue;
    rollout_.after_.push_back(EntryOf(old, old.name(), RolloutStatus::kRemoved));
  }
  return std::move(rollout_);
}

RolloutEntry Rollout::At(std::size_t index) const {
  if (index >= consumers_count_) return after_[index - consumers_count_];
  auto held = std::lower_bound(held_.begin(), held_.end(), index,
                               [](const std::pair<std::size_t, RolloutEntry>& entry,
                                  std::size_t i) { return entry.first < i; });
  if (held != held_.end() && held->first == index) return held->second;
  const Consumer& consumer = (*consumers_)[index];
  return EntryOf(consumer, consumer.name(), RolloutStatus::kNew);
}

void Rollout::Keep() {
  std::vector<RolloutEntry> every;
  every.reserve(size());
  for (const RolloutEntry& entry : *this) every.push_back(entry);
  *this = Rollout();
  after_ = std::move(every);
}

const std::vector<std::string>& RolloutEntry::changed() const {
  static const std::vector<std::string> kNone;
  return changed_ ? *changed_ : kNone;
}

void RolloutEntry::set_changed(std::vector<std::string> sources) {
  changed_ = sources.empty() ? nullptr
                             : std::make_shared<const std::vector<std::string>>(std::move(sources));
}

std::string RolloutEntry::Object() const { return kind + " " + name_space + "/" + name; }

std::vector<std::string> RolloutLines(const Rollout& rollout) {
  if (rollout.empty()) return {};
  // In the order a reader weighs them: what changes first.
  constexpr RolloutStatus kOrder[] = {RolloutStatus::kRolled,     RolloutStatus::kRenamed,
                                      RolloutStatus::kRefused,    RolloutStatus::kRemoved,
                                      RolloutStatus::kAlreadyRan, RolloutStatus::kNew,
                                      RolloutStatus::kUnchanged};
  std::map<RolloutStatus, std::size_t> counts;
  for (const RolloutEntry& entry : rollout) ++counts[entry.status];
  std::string summary;
  for (RolloutStatus status : kOrder) {
    if (counts[status] == 0) continue;
    summary += (summary.empty() ? "" : ", ") + std::to_string(counts[status]) + " " +
               RolloutStatusName(status);
  }
  std::vector<std::string> lines = {summary};
  for (const RolloutEntry& entry : rollout) {
    if (entry.status == RolloutStatus::kNew || entry.status == RolloutStatus::kUnchanged) continue;
    lines.push_back(FormatRollout(entry));
  }
  return lines;
}

std::string FormatRollout(const RolloutEntry& entry) {
  std::string out = entry.Object() + ": " + RolloutStatusName(entry.status);
  if (entry.status == RolloutStatus::kRefused) {
    return out + " (its pod template changed, and a Job's template is immutable)";
  }
  if (entry.status == RolloutStatus::kAlreadyRan) {
    return out + " (already ran: written back as the previous release has it)";
  }
  std::string detail;
  if (entry.status == RolloutStatus::kRenamed) detail = "was " + entry.previous;
  if (!entry.changed().empty()) {
    std::string list;
    for (const std::string& source : entry.changed()) list += (list.empty() ? "" : ", ") + source;
    detail += (detail.empty() ? "" : "; ") + std::string("changed: ") + list;
  }
  return detail.empty() ? out : out + " (" + detail + ")";
}

}  // namespace rollcall
