#include "rollcall/render.h"

#include <algorithm>
#include <tuple>

#include "rollcall/annotate.h"
#include "rollcall/document.h"
#include "rollcall/hashing.h"
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

Finding MakeFinding(const char* rule, Severity severity, Location where, std::string object,
                    std::string message) {
  return Finding{rule, severity, std::move(where), std::move(object), "", std::move(message)};
}

void ReportUnresolved(const Consumer& consumer, const std::vector<const Reference*>& unresolved,
                      std::vector<Finding>& findings) {
  for (const Reference* ref : unresolved) {
    std::string how = ReadViaName(ref->via);
    std::string message = consumer.Describe() + " reads " + ref->source.Describe() + " (" + how +
                          ") but it is not in the input: it is not in the hash" +
                          (ref->optional ? " (the reference is optional)" : "");
    findings.push_back(MakeFinding("unresolved-reference", Severity::kWarning, ref->where,
                                   consumer.Describe(), std::move(message)));
  }
}

void ReportNotEdited(const Consumer& consumer, std::vector<Finding>& findings) {
  if (consumer.references.empty()) return;
  if (consumer.role == ConsumerRole::kPlainJob) {
    findings.push_back(MakeFinding(
        "plain-job-unchanged", Severity::kWarning, consumer.where, consumer.Describe(),
        consumer.Describe() +
            " is left unchanged: a Job's pod template is immutable, so a Secret or ConfigMap"
            " change will not reach it"));
  } else if (consumer.role == ConsumerRole::kPod) {
    findings.push_back(
        MakeFinding("bare-pod", Severity::kWarning, consumer.where, consumer.Describe(),
                    consumer.Describe() + " reads Secrets or ConfigMaps but a bare Pod cannot roll;"
                                          " run it from a Deployment, StatefulSet or Job"));
  }
}

}  // namespace

RenderResult Render(const Stream& stream, const RenderOptions& options) {
  std::vector<Document> documents = ParseStream(stream, options.limits);
  RenderResult result;
  for (const Document& doc : documents) {
    if (doc.shape() == Document::Shape::kNotObject) {
      result.findings.push_back(MakeFinding(
          "not-an-object", Severity::kWarning, doc.Locate(), "",
          "a mapping without apiVersion and kind is not a Kubernetes object; passed through"));
    }
  }
  Model model = BuildModel(documents, options.default_namespace);
  result.findings.insert(result.findings.end(), model.findings.begin(), model.findings.end());

  std::vector<Edit> edits;
  for (const Consumer& consumer : model.consumers) {
    std::vector<const Reference*> unresolved;
    std::vector<SourceRead> reads = ResolveReads(consumer, model, &unresolved);
    ReportUnresolved(consumer, unresolved, result.findings);
    if (consumer.role == ConsumerRole::kPlainJob || consumer.role == ConsumerRole::kPod) {
      ReportNotEdited(consumer, result.findings);
      continue;
    }
    AnnotationChange change;
    if (reads.empty()) {
      // Nothing to hash: take away what an earlier run may have left.
      change.remove = {kConfigHashAnnotation, kConfigSourcesAnnotation};
    } else {
      change.set = {
          {kConfigHashAnnotation, ConfigHash(CanonicalEncoding(reads), options.hmac_key)},
          {kConfigSourcesAnnotation, DescribeSources(reads)},
      };
    }
    for (Edit& edit : EditAnnotations(*consumer.document, consumer.pod_template, change)) {
      edits.push_back(std::move(edit));
    }
  }
  result.output = Splice(stream.bytes(), std::move(edits));
  std::stable_sort(
      result.findings.begin(), result.findings.end(), [](const Finding& a, const Finding& b) {
        return std::tie(a.where.document, a.where.line) < std::tie(b.where.document, b.where.line);
      });
  return result;
}

}  // namespace rollcall
