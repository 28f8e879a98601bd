// Sources from outside the input: the Secret that a separate command applies, a
// controller syncs, or many releases share is often not in the chart. A state file
// (`kubectl get secret,configmap NAME… -o yaml`) gives its content, so render can
// hash it like a source in the input. Values read here never leave the process.
#pragma once

#include <string>
#include <vector>

#include "rollcall/limits.h"
#include "rollcall/model.h"

namespace rollcall {

// A word of a hook's command in a state file that may name a Secret the hook creates
// (ConsumerNotes::hook_words), as a hook of the input's does: `helm rollcall` gives
// Helm 3's hooks as a state file, and the Secret a setup Job creates must then be
// recognised as under Helm 4, where the Job is in the input.
struct StateHookWord {
  std::string name_space;
  std::string word;
  std::string hook;  // "Job ns/name"
};

// What a state file gives: its Secrets and ConfigMaps, and its hooks' words.
struct StateFile {
  std::vector<Source> sources;
  std::vector<StateHookWord> hook_words;
};

// Reads a state file: a `v1` List (or SecretList, …), or a stream of objects. Throws
// InputError naming the file on unreadable or malformed input (never quoting a value).
StateFile ReadStateFile(const std::string& path, const std::string& default_namespace,
                        const Limits& limits);
// Its Secrets and ConfigMaps only.
std::vector<Source> LoadStateFile(const std::string& path, const std::string& default_namespace,
                                  const Limits& limits);

// Adds `state` to `model`; a source the input defines wins (the input is what will
// be applied). Returns how many were added.
std::size_t AddStateSources(Model& model, const std::vector<Source>& state);

}  // namespace rollcall
