// What `lint` and `consumers` read: files, directories (recursively), stdin, and
// Helm charts rendered with `helm template`. Each becomes a Stream; all their
// documents go into one analysis, so a Secret in one file resolves references in
// another.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rollcall/directory_walk.h"
#include "rollcall/document.h"
#include "rollcall/facts.h"
#include "rollcall/finding.h"
#include "rollcall/input_bytes.h"
#include "rollcall/input_error.h"
#include "rollcall/kind_scan.h"
#include "rollcall/limits.h"
#include "rollcall/markers.h"
#include "rollcall/stream.h"

namespace rollcall {

// Reads standard input ("<stdin>"); throws InputError when it holds more than
// `max_bytes`, checked while reading. A pipe and a redirected file alike are read
// into one buffer that grows in place (input_bytes.h): the input is held once.
InputBytes ReadStandardInput(std::size_t max_bytes);

struct InputOptions {
  std::string helm;                       // helm binary: --helm, else $HELM_BIN, else "helm"
  std::vector<std::string> values_files;  // -f, passed to helm template
  std::vector<std::string> set_values;    // --set, passed to helm template
  // --release: the release name charts are rendered with; empty: one made from the
  // chart directory's name (object_names.h's ReleaseNameFor).
  std::string release;
  std::string name_space = "default";
  Limits limits;
  // How documents' facts are read as they are parsed (facts.h): the trees go as soon
  // as nothing later needs them.
  FactOptions facts;
  // Which documents to parse (AnalysisReads, as render does); the others get the text
  // checks only. Empty: every document.
  std::function<bool(const TypeHeader&, std::string_view)> parses;
  // Lint's way: a path, file or chart that cannot be read, parsed or rendered
  // becomes an input-error finding and the others are still read; otherwise the
  // first one throws (consumers: a partial list of readers is a wrong one).
  bool keep_going = false;
  // lint --hook: a chart whose dependencies are not in its charts/ directory is left
  // out with a chart-dependencies-missing warning instead of an input error.
  bool missing_dependencies_warn = false;
  // What "-" reads, given the input limit: file descriptor 0 unless a caller that
  // has the bytes in hand (the lint fuzzer) passes them in.
  std::function<InputBytes(std::size_t max_bytes)> standard_input = ReadStandardInput;
};

// A chart rendered for the analysis: findings in its output are mapped back to
// its files (chart_findings.h).
struct RenderedChart {
  std::string name;       // the chart's name, the first part of every "# Source:" path
  std::string directory;  // as given on the command line, or as the walk found it
  const Stream* stream = nullptr;
  std::size_t max_bytes = 0;  // how much of a template file may be read (the input limit)
  std::vector<std::string> values_files;  // -f, as helm template was given them
};

struct Inputs {
  std::vector<std::unique_ptr<Stream>> streams;
  std::vector<Document> documents;
  // Values-like documents counted rather than recorded, per stream (ParseStream).
  std::vector<CountedNotObjects> counted_not_objects;
  // The Secrets and ConfigMaps taken from the documents as they were parsed, in
  // the order of the streams (facts.h's SourceTaker).
  SourceDefinitions defined_sources;
  std::vector<Marker> loose_markers;  // from templates that do not parse
  std::vector<Finding> findings;      // template-not-analysed notes, input errors
  std::vector<InputError> errors;     // what the input-error findings say (keep_going)
  std::vector<RenderedChart> charts;
  std::vector<SkippedEntry> skipped;  // symbolic links a directory walk did not follow
};

// Reads `paths` ("-" is stdin): a file named here is followed if it is a symbolic
// link, and must be a regular file (regular_file.h); a directory is walked without
// following links (directory_walk.h), what it left out listed in `skipped`. A
// missing or unreadable path, a special file, malformed YAML in a manifest, a chart
// Helm cannot render, or no helm for a chart throws InputError, or with
// `keep_going` is an input-error finding and the next input is read.
Inputs LoadInputs(const std::vector<std::string>& paths, const InputOptions& options);

// A path as shown to the user: relative to the working directory when under it.
std::string DisplayPath(const std::string& path);

}  // namespace rollcall
