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

// The Secrets and ConfigMaps of a state file: a `v1` List (or SecretList, …), or a
// stream of objects. Throws InputError naming the file on unreadable or malformed
// input (never quoting a value).
std::vector<Source> LoadStateFile(const std::string& path, const std::string& default_namespace,
                                  const Limits& limits);

// Adds `state` to `model`; a source the input defines wins (the input is what will
// be applied). Returns how many were added.
std::size_t AddStateSources(Model& model, const std::vector<Source>& state);

}  // namespace rollcall
