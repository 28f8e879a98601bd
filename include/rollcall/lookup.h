// Looking up, in the cluster, the sources that neither the input nor a state file
// holds (--lookup kubectl, opt-in): one `kubectl get` per namespace and kind, for
// exactly the names still unresolved. Values read here never leave the process.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "rollcall/finding.h"
#include "rollcall/limits.h"
#include "rollcall/model.h"

namespace rollcall {

struct LookupResult {
  std::vector<Source> sources;
  std::vector<Finding> findings;  // a failed lookup tolerated by --lookup-optional
};

// Fetches the sources named in `wanted` (sorted, unique). Objects that do not exist
// are simply absent from the result, and so is a source whose name or namespace
// no object can have (object_names.h): it is never looked up.
using SourceLookup = std::function<LookupResult(const std::vector<SourceId>& wanted)>;

struct KubectlOptions {
  std::string kubectl = "kubectl";  // $KUBECTL, else kubectl on PATH
  std::string context;              // --kube-context
  bool optional = false;            // --lookup-optional: a failing kubectl is a warning
  Limits limits;
};

// A lookup that runs, once per namespace and kind,
//   kubectl get --namespace=NS --output=yaml --ignore-not-found [--context=CTX] -- KIND NAME…
// (every value joined to its flag, every positional argument after "--", and only
// names and namespaces the API server accepts: nothing from the input can read as
// an option). A failing kubectl throws InputError with kubectl's message, or, when
// optional, gives a `lookup-failed` finding and no sources. kubectl's output is
// held to limits.max_input_bytes.
SourceLookup KubectlLookup(KubectlOptions options);

}  // namespace rollcall
