#include "rollcall/reference_coverage.h"

#include "rollcall/object_names.h"

namespace rollcall {
namespace {

// Why a source was not looked up: its name, or else its namespace, breaks the API
// server's rule.
std::string InvalidNameReason(const SourceId& source) {
  if (!IsNamespaceName(source.name_space.view())) {
    return "its namespace " + QuotedName(source.name_space.view()) +
           " cannot name a namespace (not a DNS-1123 label), so it was not looked up";
  }
  return QuotedName(source.name.view()) + " cannot name a " + SourceKindName(source.kind) +
         " (not a DNS-1123 subdomain), so it was not looked up";
}

}  // namespace

std::string ReferenceCoverage::Reason() const {
  const SourceId& source = reference->source();
  switch (cause) {
    case CoverageCause::kMarker:
      if (marker->value.kind == MarkerKind::kPending) return "SECRET-VERSION: pending";
      return std::string(MarkerKindName(marker->value.kind)) + ": " + marker->value.reason;
    case CoverageCause::kRuntime:
      return "rotated at runtime by " + rotation->controller;
    case CoverageCause::kRunOnce:
      return "a run-once Job: a later change is not meant to reach it";
    case CoverageCause::kAbsentOptional:
      return "optional, and " + source.Describe() + " does not exist in the cluster";
    case CoverageCause::kHook:
      return "a hook: recreated on every run, it reads the source as it is then";
    case CoverageCause::kRestarted:
      return std::string("restarted on a change by ") + watch->controller + " (" +
             watch->annotation + "), if it runs in the cluster";
    case CoverageCause::kClusterPublished:
      return "the cluster's CA bundle, which Kubernetes publishes in every namespace, read "
             "through a volume the kubelet updates in place";
    case CoverageCause::kHookGenerated:
      return "created at install time by the hook " + *generator +
             ", which names it in its arguments: its content is in no manifest";
    case CoverageCause::kAbsentEverywhere:
      return source.Describe() + " is neither in the input nor in the cluster";
    case CoverageCause::kNotInInput:
      return source.Describe() + " is not in the input";
    case CoverageCause::kInvalidName:
      return InvalidNameReason(source);
    case CoverageCause::kJobKept:
      return "the Job is kept unchanged (job policy keep), so its content is in no hash";
    case CoverageCause::kOwnedPod:
      return "a Pod its controller owns: the controller's pod template is the reader, and a "
             "change reaches the Pod when the controller rolls and replaces it";
    case CoverageCause::kBarePod:
      return "a bare Pod cannot roll";
    case CoverageCause::kContentKnown:
      return "content known";
  }
  return "";
}

void CoverageRecords::Add(const ReferenceCoverage& record) {
  states_.push_back({record.state, record.cause});
  if (record.NamesMore()) more_.push_back({states_.size() - 1, record});
}

CoverageRecords::Iterator::Iterator(const CoverageRecords* records, std::size_t index)
    : records_(records), index_(index) {
  if (index_ >= records_->size()) return;  // the end: nothing to walk
  consumer_ = records_->consumers_->begin();
  SkipConsumersWithoutReferences();
}

void CoverageRecords::Iterator::SkipConsumersWithoutReferences() {
  while (consumer_ != records_->consumers_->end() && consumer_->references.empty()) ++consumer_;
}

ReferenceCoverage CoverageRecords::Iterator::operator*() const {
  const std::vector<More>& more = records_->more_;
  if (more_ < more.size() && more[more_].index == index_) return more[more_].record;
  ReferenceCoverage out;
  out.consumer = &*consumer_;
  out.reference = &consumer_->references[reference_];
  const State& state = records_->states_[index_];
  out.state = state.state;
  out.cause = state.cause;
  return out;
}

CoverageRecords::Iterator& CoverageRecords::Iterator::operator++() {
  ++index_;
  const std::vector<More>& more = records_->more_;
  if (more_ < more.size() && more[more_].index < index_) ++more_;
  if (++reference_ == consumer_->references.size()) {
    ++consumer_;
    reference_ = 0;
    SkipConsumersWithoutReferences();
  }
  return *this;
}

}  // namespace rollcall
