// A lint baseline: the findings a team accepted when it adopted rollcall on a
// repository that already had some, so that a run fails on new findings only.
// `rollcall lint --write-baseline FILE` records the current findings;
// `rollcall lint --baseline FILE` drops the findings FILE accepts and reports the
// entries that no longer match anything, so that fixed ones get pruned.
//
// The file is JSON, written here with nlohmann (so any byte of a name is escaped
// correctly) and read back strictly: a typo must not silently accept nothing, or
// everything. Each entry says what was accepted (rule, file, object, reference and
// the message as it was) and why (`reason`, for the team to edit). Entries match on
// identity, never on line numbers: a line added above a finding must not turn an
// accepted finding into a new one. No entry holds a Secret's value, because no
// finding does (input_error.h, decision 7 of the design notes).
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rollcall/finding.h"

namespace rollcall {

// The reason an entry gets when it is written: the team replaces it with theirs.
inline constexpr const char* kDefaultBaselineReason =
    "accepted as it was when the baseline was written";

// One accepted finding.
struct BaselineEntry {
  std::string rule;
  std::string file;       // the finding's file as lint reports it ("<stdin>" for stdin)
  std::string object;     // "Deployment ns/name", or "" for a finding about text
  std::string reference;  // "secret/db[password] via env in container app", or ""
  // The finding's message when the entry was written. Not part of the identity (a
  // newer rollcall may word it differently), but an entry whose message is the same
  // is paired first when several share one identity.
  std::string message;
  std::string reason;    // why it may stay; never empty
  std::size_t line = 0;  // where the entry starts in its file (0 when not read from one)
};

struct Baseline {
  std::string file;  // the path as the user gave it, for messages
  std::vector<BaselineEntry> entries;
};

// --- the file ------------------------------------------------------------------

// Reads a baseline file: a regular file of at most `max_bytes`. Throws InputError
// naming the file, and the line when one is to blame: not JSON, not the layout
// above, a version this rollcall does not know, an unknown key, a field that is not
// a string, an entry without rule, file or reason.
Baseline LoadBaseline(const std::string& path, std::size_t max_bytes);
// The same for text already read; `file` names it in messages.
Baseline ParseBaseline(std::string_view text, const std::string& file);

// The file's text: a JSON object {"about", "version", "entries"}, entries sorted by
// file, rule, object, reference and message, so that writing the same findings
// again gives the same bytes, and the diff of a new baseline shows what changed.
std::string BaselineText(const Baseline& baseline);

// --- using it ------------------------------------------------------------------

// The files a run read. An entry about a file the run did not read (the pre-commit
// hook lints only the changed files) cannot be judged: it is neither used nor
// reported as stale, and writing a baseline keeps it.
class BaselineScope {
 public:
  // A file that was read (a manifest, a document's "# Source:" path, "<stdin>").
  void AddFile(std::string file);
  // A chart directory that was rendered: every file under it was read.
  void AddDirectory(std::string directory);
  bool Covers(const std::string& file) const;

 private:
  std::set<std::string> files_;
  std::vector<std::string> directories_;  // "" for the working directory itself
};

// The file a finding is about, as entries name it ("<stdin>" for input from stdin).
std::string BaselineFile(const Finding& finding);

struct AcceptedFinding {
  Finding finding;
  std::string reason;
};

// What a baseline did to a run.
struct BaselineOutcome {
  std::string file;                       // the baseline, as given
  std::vector<AcceptedFinding> accepted;  // findings it accepted, in report order
  std::vector<BaselineEntry> stale;       // entries about files read that matched nothing
};

// Pairs `findings` with `baseline`'s entries, one finding per entry: first where the
// message is the same too, then on identity (rule, file, object, reference) alone.
// Findings paired are moved out of `findings` into the outcome; entries left
// unpaired whose file `scope` covers are the outcome's stale ones.
BaselineOutcome ApplyBaseline(const Baseline& baseline, const BaselineScope& scope,
                              std::vector<Finding>& findings);

// A new baseline for `findings`: one entry per finding at warning or error severity
// (info never fails a run, so there is nothing to accept), with the reason of the
// entry of `previous` it pairs with, else kDefaultBaselineReason. Entries of
// `previous` about files `scope` does not cover are kept as they were; those about
// files it covers that pair with nothing are dropped (the finding is gone).
Baseline NewBaseline(const std::vector<Finding>& findings, const Baseline& previous,
                     const BaselineScope& scope, std::string file);

// The info finding `stale-baseline-entry` for an entry of `baseline_file` that
// matched nothing, located at the entry's line there.
Finding StaleEntryFinding(const BaselineEntry& entry, const std::string& baseline_file);

}  // namespace rollcall
