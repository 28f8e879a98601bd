// The rules, one file each under src/rules/, listed in src/rules.cc. This header
// is their table of contents and holds the helpers they share.
#pragma once

#include <string>
#include <vector>

#include "rollcall/analysis.h"
#include "rollcall/finding.h"
#include "rollcall/rules.h"

namespace rollcall::rules {

// A finding about one reference: located at the reference, naming its consumer
// and the reference. The severity is filled in by RunRules from the registry.
Finding AtReference(const char* rule, const ReferenceCoverage& coverage, std::string message);

// A finding about an object or a place in the text.
Finding At(const char* rule, Location where, std::string object, std::string message);

// Markers and coverage.
Rule PendingMarker();
Rule UnresolvedReference();
Rule UnresolvedOptionalReference();
Rule HookGeneratedSource();
Rule Helm3HookSource();
Rule MalformedMarker();
Rule ChecksumNotHashed();
Rule ReloadsNotReloadable();
Rule OrphanMarker();
// Runtime-rotated sources.
Rule RuntimeSourceInEnv();
Rule RuntimeSourceSubPath();
Rule RuntimeSourceInInitContainer();
// What the API server or kubelet would do differently from what the author meant.
Rule MalformedReference();
Rule MissingKey();
Rule DuplicateKey();
Rule DuplicateSource();
// Rendered manifests committed with a hash of older content.
Rule StaleConfigHash();
// Consumers that cannot roll.
Rule BarePod();
Rule PlainJobUnchanged();
// Jobs and the previous release.
Rule RunOnceAlreadyRan();
Rule StaleOneTimeToken();
Rule ImmutableField();
// Input and suppressions.
Rule LookupFailed();
Rule NotAnObject();
Rule TemplateNotAnalysed();
Rule ChartDependenciesMissing();
Rule InputError();
Rule InvalidIgnore();
// The lint baseline.
Rule StaleBaselineEntry();

}  // namespace rollcall::rules
