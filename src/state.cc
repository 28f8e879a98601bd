#include "rollcall/state.h"

#include "rollcall/document.h"
#include "rollcall/input_error.h"
#include "rollcall/regular_file.h"

namespace rollcall {

std::vector<Source> LoadStateFile(const std::string& path, const std::string& default_namespace,
                                  const Limits& limits) {
  Stream stream(ReadRegularFileBytes(
                    path, path, RegularFileRead::Input("the state file", limits.max_input_bytes)),
                path, limits.max_documents);
  std::vector<Source> sources;
  for (const Document& doc : ParseStream(stream, limits)) {
    for (Source& source : ExtractStateSources(doc, default_namespace)) {
      sources.push_back(std::move(source));
    }
  }
  return sources;
}

std::size_t AddStateSources(Model& model, const std::vector<Source>& state) {
  return model.sources.Add(state, SourceTable::OnSameId::kKeepTable);
}

}  // namespace rollcall
