// The coverage of each reference as the analysis found it: its state, why, and
// what the cause names. A large stream has hundreds of thousands of references, so
// the records the analysis keeps are two bytes each, and what few of them name (a
// marker, a rotation, a restart controller, a generating hook) is held apart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rollcall/coverage.h"
#include "rollcall/markers.h"
#include "rollcall/model.h"
#include "rollcall/owned_list.h"
#include "rollcall/restart_controllers.h"
#include "rollcall/runtime_sources.h"

namespace rollcall {

// Why a reference ends in its coverage state.
enum class CoverageCause : std::uint8_t {
  kMarker,            // pending, waived: the marker says so
  kRuntime,           // runtime: a controller rotates the source
  kRunOnce,           // waived: a run-once Job
  kAbsentOptional,    // waived: optional, and the source is not in the cluster
  kHook,              // waived: a hook, recreated on each run, reads the source then
  kRestarted,         // waived: a restart controller (Reloader, Wave) is asked to act
  kHookGenerated,     // waived: a hook creates the source at install time
  kOwnedPod,          // waived: a Pod its controller owns, replaced when that rolls
  kClusterPublished,  // waived: kube-root-ca.crt, which Kubernetes keeps in every namespace
  kAbsentEverywhere,  // unresolved: neither in the input nor in the cluster
  kNotInInput,        // unresolved: not in the input, nor looked up
  kInvalidName,       // unresolved: a name or namespace no object can have, never looked up
  kJobKept,           // unresolved: a plain Job kept unchanged
  kBarePod,           // unresolved: a bare Pod cannot roll
  kContentKnown,      // hashed
};

// The coverage of one reference, as the rules read it: a few pointers, the
// reason's text made when it is shown.
struct ReferenceCoverage {
  const Consumer* consumer = nullptr;
  const Reference* reference = nullptr;
  const Marker* marker = nullptr;  // the marker that binds to it, if any
  // What the cause names: kRuntime the rotation, kRestarted the controller asked,
  // kHookGenerated the hook that creates the source.
  union {
    const Rotation* rotation = nullptr;
    const RestartWatch* watch;
    const std::string* generator;  // the hook, described: "Job ns/name"
  };
  Coverage state = Coverage::kUnresolved;
  CoverageCause cause = CoverageCause::kNotInInput;

  // Whether it names anything beyond its consumer and reference.
  bool NamesMore() const { return marker != nullptr || rotation != nullptr; }
  // "content known", "rotated at runtime by cert-manager", …
  std::string Reason() const;
};

// The coverage of every reference of a list of consumers, in their order and each
// one's references' order: two bytes a reference, and the whole record of the few
// that name more (NamesMore). Read as a list of records, each made as it is read.
class CoverageRecords {
 public:
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = ReferenceCoverage;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = ReferenceCoverage;

    ReferenceCoverage operator*() const;
    Iterator& operator++();
    bool operator==(const Iterator& other) const { return index_ == other.index_; }
    bool operator!=(const Iterator& other) const { return index_ != other.index_; }

   private:
    friend class CoverageRecords;
    Iterator(const CoverageRecords* records, std::size_t index);
    void SkipConsumersWithoutReferences();

    const CoverageRecords* records_ = nullptr;
    OwnedList<Consumer>::const_iterator consumer_;
    std::size_t reference_ = 0;  // within the consumer
    std::size_t index_ = 0;      // within the records
    std::size_t more_ = 0;       // the first of more_ at or past index_
  };

  CoverageRecords() = default;
  // `consumers` must outlive the records, and their references must not change.
  explicit CoverageRecords(const OwnedList<Consumer>* consumers) : consumers_(consumers) {}

  // The next reference's record, in order.
  void Add(const ReferenceCoverage& record);
  void reserve(std::size_t references) { states_.reserve(references); }

  std::size_t size() const { return states_.size(); }
  bool empty() const { return states_.empty(); }
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size()}; }

 private:
  struct State {
    Coverage state;
    CoverageCause cause;
  };
  struct More {
    std::size_t index;
    ReferenceCoverage record;
  };

  const OwnedList<Consumer>* consumers_ = nullptr;
  std::vector<State> states_;
  std::vector<More> more_;  // by index
};

}  // namespace rollcall
