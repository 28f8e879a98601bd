// The post-renderer: which edits a stream needs so that every consumer's pod
// template carries the hash of what it reads, and the stream with those edits
// applied. Nothing here writes to stdout or stderr; the CLI does.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rollcall/config.h"
#include "rollcall/coverage.h"
#include "rollcall/edit.h"
#include "rollcall/finding.h"
#include "rollcall/jobs.h"
#include "rollcall/limits.h"
#include "rollcall/lookup.h"
#include "rollcall/previous.h"
#include "rollcall/rollout.h"
#include "rollcall/stream.h"
#include "rollcall/template_hash.h"

namespace rollcall {

struct RenderOptions {
  std::string default_namespace = "default";  // for objects that name none
  Limits limits;
  Config config;    // .rollcall.yaml: severities, runtime sources, consumer kinds
  JobOptions jobs;  // --job-policy, --run-once-pattern
  const PreviousRelease* previous = nullptr;  // --previous, --previous-release
  std::vector<Source> state;                  // --state: sources from outside the input
  SourceLookup lookup;                        // --lookup kubectl
  std::optional<std::string> hmac_key;        // HMAC-SHA-256 instead of SHA-256 when set
};

struct RenderResult {
  std::string output;                 // the input with rollcall's edits spliced in
  std::vector<Edit> edits;            // PlanRender's instead of `output`: to splice in
  std::vector<Finding> findings;      // what the rules found, as lint would report them
  CoverageSummary summary;            // coverage of every reference
  std::vector<RolloutEntry> rollout;  // each consumer against the previous release
};

// Throws InputError on malformed input; then nothing may be written to stdout.
RenderResult Render(const Stream& stream, const RenderOptions& options);

// Render without building the output: `edits` say how to make it from the input
// (SplicePieces). The CLI writes the pieces straight to stdout, so a large stream's
// output never sits in memory beside its input (docs/performance.md).
RenderResult PlanRender(const Stream& stream, const RenderOptions& options);

}  // namespace rollcall
