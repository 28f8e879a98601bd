// The post-renderer: which edits a stream needs so that every consumer's pod
// template carries the hash of what it reads, and the stream with those edits
// applied. Nothing here writes to stdout or stderr; the CLI does.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rollcall/analysis.h"
#include "rollcall/config.h"
#include "rollcall/coverage.h"
#include "rollcall/edit.h"
#include "rollcall/finding.h"
#include "rollcall/jobs.h"
#include "rollcall/limits.h"
#include "rollcall/lookup.h"
#include "rollcall/previous/release.h"
#include "rollcall/previous/rollout.h"
#include "rollcall/stream.h"
#include "rollcall/template_hash.h"

namespace rollcall {

struct RenderOptions {
  std::string default_namespace = "default";  // for objects that name none
  Limits limits;
  Config config;    // .rollcall.yaml: severities, runtime sources, consumer kinds
  JobOptions jobs;  // --job-policy, --run-once-pattern
  const PreviousRelease* previous = nullptr;    // --previous, --previous-release
  std::vector<Source> state;                    // --state: sources from outside the input
  std::vector<StateHookWord> state_hook_words;  // --state: what its hooks may create
  SourceLookup lookup;                          // --lookup kubectl
  std::optional<std::string> hmac_key;          // HMAC-SHA-256 instead of SHA-256 when set
};

struct RenderResult {
  std::string output;             // the input with rollcall's edits spliced in
  std::vector<Finding> findings;  // what the rules found, as lint would report them
  CoverageSummary summary;        // coverage of every reference
  // Each consumer against the previous release. RenderPlan's reads the plan's
  // consumers: it is read while the plan lives.
  Rollout rollout;
};

// Throws InputError on malformed input; then nothing may be written to stdout.
RenderResult Render(const Stream& stream, const RenderOptions& options);

// Render without building the output, for writing it piece by piece (the CLI's
// stdout): the stream is read and analysed, and every consumer's edits are planned
// once, to know they can be made. Where those edits are large beside the input
// (more than a quarter of it: a stream of many small workloads), they are dropped
// and planned again, a chunk of consumers at a time, as the output is written: a
// large stream's edits are never all held beside its model (docs/performance.md).
class RenderPlan {
 public:
  // Throws InputError on malformed input, a consumer whose annotations cannot be
  // edited included: then nothing may be written to stdout. `stream` and `options`
  // must outlive the plan.
  RenderPlan(const Stream& stream, const RenderOptions& options);
  ~RenderPlan();
  RenderPlan(const RenderPlan&) = delete;
  RenderPlan& operator=(const RenderPlan&) = delete;

  // Findings, summary and rollout; no output.
  RenderResult& result() { return result_; }

  // Hands `take` the edits that make the output from the input, in runs: one for
  // each chunk of consumers, in stream order, each run's edits at or past the end
  // of the run before (edit.h's SpliceCutter). Stops when `take` returns false.
  // Called once: the runs kept from the first planning are handed over.
  void ForEachEditRun(const std::function<bool(std::vector<Edit>&)>& take);

 private:
  const RenderOptions& options_;
  std::unique_ptr<Analysis> analysis_;
  RenderResult result_;
  bool keeps_every_run_ = false;  // the first planning's runs are all here
  std::vector<std::vector<Edit>> kept_runs_;
};

}  // namespace rollcall
