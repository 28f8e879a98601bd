#include "rollcall/lookup.h"

#include <map>
#include <utility>

#include "rollcall/document.h"
#include "rollcall/input_error.h"
#include "rollcall/limits.h"
#include "rollcall/object_names.h"
#include "rollcall/process.h"

namespace rollcall {
SourceLookup KubectlLookup(KubectlOptions options) {
  return [options = std::move(options)](const std::vector<SourceId>& wanted) {
    std::map<std::pair<std::string, SourceKind>, std::vector<std::string>> batches;
    for (const SourceId& id : wanted) {
      // Checked here as well as by the analysis: whatever asks, kubectl never sees
      // a name that could read as an option.
      if (!IsNamespaceName(id.name_space.view()) || !IsSourceName(id.name.view())) continue;
      batches[{id.name_space, id.kind}].push_back(id.name);
    }
    LookupResult result;
    for (const auto& [where, names] : batches) {
      const auto& [name_space, kind] = where;
      std::vector<std::string> argv = {options.kubectl, "get", "--namespace=" + name_space,
                                       "--output=yaml", "--ignore-not-found"};
      if (!options.context.empty()) argv.push_back("--context=" + options.context);
      argv.insert(argv.end(), {"--", SourceKindSlug(kind)});
      argv.insert(argv.end(), names.begin(), names.end());
      std::string origin = "kubectl get " + std::string(SourceKindSlug(kind)) + " -n " + name_space;
      ProcessOutput got = RunProgram(argv, options.limits.max_input_bytes, origin);
      if (got.exit_code != 0) {
        std::string message = KubectlFailure(got);
        if (!options.optional) throw InputError(Location{origin, 0, 0, 0}, message);
        Finding finding;
        finding.rule = "lookup-failed";
        finding.where = Location{origin, 0, 0, 0};
        finding.message = message + "; the sources stay unresolved (--lookup-optional)";
        result.findings.push_back(std::move(finding));
        continue;
      }
      Stream stream(std::move(got.out), origin, options.limits.max_documents);
      for (const Document& doc : ParseStream(stream, ListOutputLimits(options.limits))) {
        for (Source& source : ExtractStateSources(doc, name_space)) {
          result.sources.push_back(std::move(source));
        }
      }
    }
    return result;
  };
}

}  // namespace rollcall
