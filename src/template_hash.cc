#include "rollcall/template_hash.h"

#include "rollcall/document.h"
#include "rollcall/hashing.h"

namespace rollcall {

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

std::optional<TemplateHash> ComputeTemplateHash(const Consumer& consumer, const Model& model,
                                                const std::optional<std::string>& hmac_key) {
  std::vector<SourceRead> reads = ResolveReads(consumer, model, nullptr);
  if (reads.empty()) return std::nullopt;
  return TemplateHash{ConfigHash(CanonicalEncoding(reads), hmac_key), DescribeSources(reads)};
}

std::string WrittenConfigHash(const Consumer& consumer) {
  const NodeShape* written = consumer.TemplateAnnotation(kConfigHashAnnotation);
  return written ? written->scalar : "";
}

}  // namespace rollcall
