#include "rollcall/state.h"

#include "rollcall/document.h"
#include "rollcall/input_error.h"
#include "rollcall/regular_file.h"

namespace rollcall {

StateFile ReadStateFile(const std::string& path, const std::string& default_namespace,
                        const Limits& limits) {
  Stream stream(ReadRegularFileBytes(
                    path, path, RegularFileRead::Input("the state file", limits.max_input_bytes)),
                path, limits.max_documents);
  StateFile out;
  for (const Document& doc : ParseStream(stream, limits)) {
    for (Source& source : ExtractStateSources(doc, default_namespace)) {
      out.sources.push_back(std::move(source));
    }
    if (!doc.IsHook()) continue;
    // Described while its document lives: a Consumer names itself through it.
    std::optional<Consumer> hook = ExtractConsumer(doc, default_namespace, {});
    if (!hook || hook->notes == nullptr) continue;
    for (const std::string& word : hook->notes->hook_words) {
      out.hook_words.push_back({hook->name_space.str(), word, hook->Describe()});
    }
  }
  return out;
}

std::vector<Source> LoadStateFile(const std::string& path, const std::string& default_namespace,
                                  const Limits& limits) {
  return ReadStateFile(path, default_namespace, limits).sources;
}

std::size_t AddStateSources(Model& model, const std::vector<Source>& state) {
  return model.sources.Add(state, SourceTable::OnSameId::kKeepTable);
}

}  // namespace rollcall
