// `rollcall roll [--apply FILE] [KIND/NAME…]`: after a Secret or ConfigMap changes
// outside a release, rolls exactly the workloads that read a changed key, by writing
// the config hash render would write, and reports what it observed them do.
#include <unistd.h>

#include <cstdlib>
#include <cxxopts.hpp>
#include <iostream>
#include <map>
#include <set>

#include "cli/analysis_flags.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "cli/output.h"
#include "rollcall/document.h"
#include "rollcall/input_error.h"
#include "rollcall/lookup.h"
#include "rollcall/node_shape.h"
#include "rollcall/object_names.h"
#include "rollcall/object_type.h"
#include "rollcall/regular_file.h"
#include "rollcall/roll/cluster_view.h"
#include "rollcall/roll/confirm.h"
#include "rollcall/roll/execute.h"
#include "rollcall/roll/kubectl.h"
#include "rollcall/roll/plan.h"
#include "rollcall/roll/report.h"

namespace rollcall::cli {
namespace {

struct RollFlags {
  std::string apply_file;          // --apply
  std::vector<SourceId> named;     // KIND/NAME arguments
  std::vector<std::string> state;  // --state
  std::string default_namespace;   // -n: of sources that name none
  bool all_namespaces = false;     // -A: the named sources in every namespace
  std::string context;
  std::string kubectl;
  std::string hmac_key_file;
  bool dry_run = false;
  bool json = false;
  double timeout_seconds = 300;
  double interval_seconds = 2;
  Limits limits;
};

// "90", "90s", "1.5m", "1h": a duration in seconds, at most a day.
double ParseDuration(const std::string& text, const std::string& option) {
  std::size_t digits = text.find_first_not_of("0123456789.");
  std::string number = text.substr(0, digits);
  std::string unit = digits == std::string::npos ? "" : text.substr(digits);
  double scale = unit.empty() || unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : -1;
  double value = -1;
  if (!number.empty() && number.find('.') == number.rfind('.') && number != ".") {
    // strtod, not stod: a number past a double's range is HUGE_VAL here (refused below),
    // where stod throws out_of_range and aborted the run.
    value = std::strtod(number.c_str(), nullptr);
  }
  if (value < 0 || scale < 0 || value * scale > 86400) {
    throw UsageError(option + " must be a duration such as 90s, 5m or 1h (at most a day)");
  }
  return value * scale;
}

// "secret/NAME", "configmap/NS/NAME": a source changed in the cluster already.
SourceId NamedSource(const std::string& arg, std::string name_space) {
  auto slash = arg.find('/');
  std::string kind = arg.substr(0, slash);
  std::string name = slash == std::string::npos ? "" : arg.substr(slash + 1);
  if (kind != "secret" && kind != "configmap") {
    throw UsageError(
        "a changed source is secret/NAME or configmap/NAME (or KIND/NAMESPACE/NAME), "
        "not '" +
        arg + "'");
  }
  if (auto second = name.find('/'); second != std::string::npos) {
    name_space = name.substr(0, second);
    name = name.substr(second + 1);
    if (!IsNamespaceName(name_space)) {
      throw UsageError("'" + arg + "' names no namespace: a namespace is " +
                       std::string(kDns1123LabelRule));
    }
  }
  if (!IsSourceName(name)) {
    throw UsageError("'" + arg + "' names no Secret or ConfigMap: a name is " +
                     std::string(kDns1123SubdomainRule));
  }
  return {kind == "secret" ? SourceKind::kSecret : SourceKind::kConfigMap, Name(name_space),
          Name(name)};
}

// The first item of a List that is not a Secret or ConfigMap (v1), or an undefined
// node when every one is.
YamlNode OtherItem(const Document& list) {
  for (const YamlNode& item : Child(list.root(), "items")) {
    const ObjectType type = TypeOf(list, item);
    if (type.api_version != "v1" || (type.kind != "Secret" && type.kind != "ConfigMap")) {
      return item;
    }
  }
  return NoNode();
}

// The Secrets and ConfigMaps of the --apply manifest; any other object, a List's
// items included, is refused, since roll would apply it without reading it.
std::vector<Source> ChangedSources(const Stream& stream, const RollFlags& flags) {
  std::vector<Source> sources;
  for (const Document& doc : ParseStream(stream, flags.limits)) {
    if (doc.shape() == Document::Shape::kEmpty) continue;
    std::vector<Source> found = ExtractStateSources(doc, flags.default_namespace);
    if (IsList(doc) && !IsListKind(doc.kind().view())) {
      // kubectl applies a List's items and none of its own fields: a Secret with
      // `items: null` applies nothing, and roll must not plan with its data.
      throw InputError(doc.Locate(Child(doc.root(), "items").Mark()),
                       doc.Describe() +
                           " has an `items` field, so kubectl reads it as a List and applies "
                           "only its items, none of its own fields: roll would plan with "
                           "content kubectl does not apply (remove `items`)");
    }
    if (IsList(doc)) {
      if (YamlNode other = OtherItem(doc); other.IsDefined()) {
        std::string kind = ScalarOr(Child(other, "kind"), "an item without a kind");
        throw InputError(doc.LocateAt(MarkPos(other.Mark())),
                         "roll applies Secrets and ConfigMaps only; this item of " +
                             doc.Describe() + " is " + kind + " (apply it with helm or kubectl)");
      }
    } else if (found.empty()) {
      throw InputError(doc.Locate(), "roll applies Secrets and ConfigMaps only; " + doc.Describe() +
                                         " is not one (apply it with helm or kubectl)");
    }
    for (Source& source : found) {
      source.DefinedIn(doc);  // where a message about it points
      sources.push_back(std::move(source));
    }
  }
  if (sources.empty()) {
    throw InputError(Location{stream.origin(), 0, 0, 0}, "no Secret or ConfigMap to apply");
  }
  return sources;
}

// How roll runs kubectl, for its own calls and for the lookup of sources alike: a
// failing kubectl is an error, never only a finding.
KubectlOptions KubectlOptionsOf(const RollFlags& flags) {
  return {flags.kubectl, flags.context, /*optional=*/false, flags.limits};
}

// A stream named on the command line, held to the input limit.
InputBytes ReadFileFor(const std::string& path, const std::string& what, const Limits& limits) {
  return ReadRegularFileBytes(path, path, RegularFileRead::Input(what, limits.max_input_bytes));
}

// The cluster before the change: --state files, or kubectl. From kubectl, the
// workloads of the changed sources' namespaces (a pod reads Secrets and ConfigMaps of
// its own namespace only, so those are all the readers there can be), or of every
// namespace with --all-namespaces, where the sources named are then found; then
// exactly the sources their readers read, looked up. Sets the request's named
// sources (--all-namespaces) and looked-up sources.
roll::ClusterView ReadView(const RollFlags& flags, roll::PlanRequest& request,
                           const roll::Kubectl& kubectl) {
  std::vector<std::unique_ptr<Stream>> streams;
  AnalysisOptions options;
  options.default_namespace = flags.default_namespace;
  if (!flags.state.empty()) {
    for (const std::string& path : flags.state) {
      streams.push_back(std::make_unique<Stream>(ReadFileFor(path, "the state file", flags.limits),
                                                 path, flags.limits.max_documents));
    }
  } else {
    std::set<std::optional<std::string>> namespaces;
    if (flags.all_namespaces) {
      namespaces.insert(std::nullopt);
    } else {
      for (const Source& source : request.new_sources) {
        namespaces.insert(source.id.name_space.str());
      }
      for (const SourceId& id : request.named) namespaces.insert(id.name_space.str());
    }
    for (const std::optional<std::string>& name_space : namespaces) {
      streams.push_back(kubectl.GetAll(roll::kWorkloadResources, name_space));
      streams.push_back(kubectl.GetAll(roll::kRolloutResource, name_space, true));
    }
  }
  roll::ClusterView view =
      roll::ReadClusterView(std::move(streams), std::move(options), flags.limits);
  const Model& cluster = view.analysis->model();
  if (flags.all_namespaces) {
    request.named.clear();
    for (const SourceId& named : flags.named) {
      for (const SourceId& id : roll::NamedInEveryNamespace(cluster, named.kind, named.name)) {
        request.named.push_back(id);
      }
    }
  }
  if (flags.state.empty()) {
    std::set<SourceId> changed(request.named.begin(), request.named.end());
    for (const Source& source : request.new_sources) changed.insert(source.id);
    request.looked_up = KubectlLookup(KubectlOptionsOf(flags))(
                            roll::SourcesToLookUp(cluster, view.skipped, changed))
                            .sources;
  }
  return view;
}

}  // namespace

cxxopts::Options RollOptionsSpec() {
  cxxopts::Options spec("rollcall roll",
                        "After a Secret or ConfigMap changes outside a release, rolls exactly the "
                        "workloads that read a changed key and reports what it observed.");
  spec.positional_help(
      "[secret/NAME|configmap/NAME|KIND/NAMESPACE/NAME…] (sources changed in the cluster "
      "already)");
  cxxopts::OptionAdder change = spec.add_options("Change");
  change("apply", "apply FILE's Secrets and ConfigMaps (kubectl apply), then roll their readers",
         cxxopts::value<std::string>(), "FILE");
  change("dry-run",
         "print the plan: which workloads, which keys changed, the patch; change "
         "nothing");
  change("hmac-key-file",
         "the key render HMACs the config hash with (default: $ROLLCALL_HMAC_KEY_FILE)",
         cxxopts::value<std::string>(), "FILE");
  cxxopts::OptionAdder cluster = spec.add_options("Cluster");
  cluster("n,namespace",
          "the namespace of changed sources that name none (default: "
          "$HELM_NAMESPACE, else default); their readers are in theirs",
          cxxopts::value<std::string>(), "NS");
  cluster("A,all-namespaces",
          "the sources named, in every namespace that has them (a Secret a controller copies "
          "into each)");
  cluster("context", "the kubeconfig context kubectl uses", cxxopts::value<std::string>(), "CTX");
  cluster("state",
          "read the cluster from FILE (kubectl get … -o yaml) instead of kubectl; "
          "only with --dry-run",
          cxxopts::value<std::vector<std::string>>(), "FILE");
  cxxopts::OptionAdder waiting = spec.add_options("Waiting");
  waiting("timeout", "how long to wait for the workloads to roll",
          cxxopts::value<std::string>()->default_value("5m"), "DURATION");
  waiting("interval", "how long to wait between two looks",
          cxxopts::value<std::string>()->default_value("2s"), "DURATION");
  cxxopts::OptionAdder output = spec.add_options("Output");
  output("format", "text or json", cxxopts::value<std::string>()->default_value("text"), "FORMAT");
  output("h,help", "show this help");
  spec.add_options(kHiddenGroup)("args", "", cxxopts::value<std::vector<std::string>>());
  spec.parse_positional({"args"});
  return spec;
}

int RunRoll(const std::vector<std::string>& args) {
  cxxopts::Options spec = RollOptionsSpec();
  RollFlags flags;
  try {
    std::optional<cxxopts::ParseResult> maybe = ParseOrHelp(spec, args);
    if (!maybe) return kExitOk;
    const cxxopts::ParseResult& parsed = *maybe;
    flags.default_namespace = DefaultNamespace(StringOption(parsed, "namespace"));
    if (!IsNamespaceName(flags.default_namespace)) {
      throw UsageError("--namespace: not a namespace name");
    }
    flags.apply_file = StringOption(parsed, "apply");
    flags.dry_run = parsed.count("dry-run") > 0;
    flags.context = StringOption(parsed, "context");
    if (parsed.count("state") > 0) flags.state = parsed["state"].as<std::vector<std::string>>();
    if (!flags.state.empty() && !flags.dry_run) {
      throw UsageError("--state is a picture of the cluster, not the cluster: only with --dry-run");
    }
    std::string format = parsed["format"].as<std::string>();
    if (format != "text" && format != "json") throw UsageError("--format must be text or json");
    flags.json = format == "json";
    flags.timeout_seconds = ParseDuration(parsed["timeout"].as<std::string>(), "--timeout");
    flags.interval_seconds = ParseDuration(parsed["interval"].as<std::string>(), "--interval");
    flags.hmac_key_file =
        FlagOrEnv(StringOption(parsed, "hmac-key-file"), "ROLLCALL_HMAC_KEY_FILE");
    flags.kubectl = FlagOrEnv("", "KUBECTL", "kubectl");
    if (parsed.count("args") > 0) {
      for (const std::string& arg : parsed["args"].as<std::vector<std::string>>()) {
        flags.named.push_back(NamedSource(arg, flags.default_namespace));
      }
    }
    flags.all_namespaces = parsed.count("all-namespaces") > 0;
    if (flags.all_namespaces && (!flags.apply_file.empty() || !flags.state.empty())) {
      throw UsageError(
          "--all-namespaces takes the sources named on the command line in every namespace; "
          "--apply's manifest and --state say their namespaces themselves");
    }
    if (flags.all_namespaces && flags.named.empty()) {
      throw UsageError(
          "--all-namespaces needs the sources to look for: secret/NAME or configmap/NAME");
    }
    if (flags.apply_file.empty() && flags.named.empty()) {
      throw UsageError("roll needs what changed: --apply FILE, or secret/NAME or configmap/NAME");
    }
  } catch (const cxxopts::exceptions::exception& e) {
    PrintError(std::string(e.what()) + " (see rollcall roll --help)");
    return kExitInput;
  } catch (const UsageError& e) {
    PrintError(e.what());
    return kExitInput;
  }

  // A reader of the report that went away is an error to say, not a silent death.
  IgnoreBrokenPipe();
  try {
    roll::Kubectl kubectl(KubectlOptionsOf(flags));
    std::optional<Stream> manifest;
    roll::PlanRequest request;
    request.named = flags.named;
    if (!flags.apply_file.empty()) {
      manifest.emplace(ReadFileFor(flags.apply_file, "", flags.limits), flags.apply_file,
                       flags.limits.max_documents);
      request.new_sources = ChangedSources(*manifest, flags);
    }
    if (!flags.hmac_key_file.empty()) request.hmac_key = ReadHmacKey(flags.hmac_key_file);
    roll::ClusterView view = ReadView(flags, request, kubectl);
    request.cluster = &view.analysis->model();
    request.skipped = view.skipped;
    roll::RollPlan plan = roll::PlanRoll(request);

    std::vector<roll::WorkloadResult> results;
    if (flags.dry_run) {
      for (const roll::WorkloadPlan& item : plan.workloads) results.push_back({&item, {}, ""});
    } else {
      if (manifest) {
        kubectl.Apply(std::string(manifest->bytes()), flags.default_namespace);
        roll::ConfirmApplied(request.new_sources, roll::KeysReadBy(plan, request.new_sources),
                             KubectlLookup(KubectlOptionsOf(flags)));
      }
      results = roll::Execute(plan, kubectl, {flags.timeout_seconds, flags.interval_seconds});
    }
    std::string report = flags.json ? roll::ReportJson(plan, results, flags.dry_run)
                                    : roll::ReportText(plan, results, flags.dry_run);
    int written = WriteOutput(report);
    if (written != kExitOk) return written;
    return flags.dry_run || roll::AllReached(results) ? kExitOk : kExitFindings;
  } catch (const InputError& e) {
    PrintError(e.where().Compact() + ": " + e.what());
    return kExitInput;
  }
}

}  // namespace rollcall::cli
