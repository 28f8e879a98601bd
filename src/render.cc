#include "rollcall/render.h"

#include "rollcall/analysis.h"
#include "rollcall/annotate.h"
#include "rollcall/document.h"
#include "rollcall/hashing.h"
#include "rollcall/lint.h"
#include "rollcall/model.h"

namespace rollcall {
namespace {

// "configmap/app-config, secret/app-secret[password]": the sources in the hash,
// with keys only where the consumer reads a subset. Names and keys, never values.
std::string DescribeSources(const std::vector<SourceRead>& reads) {
  std::string out;
  for (const SourceRead& read : reads) {
    if (!out.empty()) out += ", ";
    out += std::string(SourceKindSlug(read.source->id.kind)) + "/" + read.source->id.name;
    if (!read.keys) continue;
    std::string keys;
    for (const std::string& key : *read.keys) keys += (keys.empty() ? "" : ",") + key;
    out += "[" + keys + "]";
  }
  return out;
}

// The annotation change one consumer needs: the hash of what it reads, or, when
// it reads nothing rollcall knows, the removal of what an earlier run left.
AnnotationChange ChangeFor(const Consumer& consumer, const Model& model,
                           const RenderOptions& options) {
  AnnotationChange change;
  std::vector<SourceRead> reads = ResolveReads(consumer, model, nullptr);
  if (reads.empty()) {
    change.remove = {kConfigHashAnnotation, kConfigSourcesAnnotation};
  } else {
    change.set = {
        {kConfigHashAnnotation, ConfigHash(CanonicalEncoding(reads), options.hmac_key)},
        {kConfigSourcesAnnotation, DescribeSources(reads)},
    };
  }
  return change;
}

}  // namespace

RenderResult Render(const Stream& stream, const RenderOptions& options) {
  AnalysisOptions analysis_options;
  analysis_options.default_namespace = options.default_namespace;
  analysis_options.config = options.config;
  Analysis analysis(ParseStream(stream, options.limits), std::move(analysis_options));

  RenderResult result;
  result.findings = RunRules(analysis);
  result.summary = analysis.Summary();
  std::vector<Edit> edits;
  for (const Consumer& consumer : analysis.model().consumers) {
    // A plain Job's template is immutable and a bare Pod cannot roll: both stay
    // byte-identical (the rules say so).
    if (consumer.role == ConsumerRole::kPlainJob || consumer.role == ConsumerRole::kPod) continue;
    AnnotationChange change = ChangeFor(consumer, analysis.model(), options);
    for (Edit& edit : EditAnnotations(*consumer.document, consumer.pod_template, change)) {
      edits.push_back(std::move(edit));
    }
  }
  result.output = Splice(stream.bytes(), std::move(edits));
  return result;
}

}  // namespace rollcall
