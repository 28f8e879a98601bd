#include "rollcall/roll/report.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "rollcall/consumers.h"
#include "rollcall/printable.h"

namespace rollcall::roll {
namespace {

// The outcome's name, or in a plan the action's.
std::string StatusOf(const WorkloadResult& result) {
  return result.outcome == Outcome::kPlanned ? ActionName(result.plan->action)
                                             : OutcomeName(result.outcome);
}

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : ", ") + part;
  return out;
}

std::string DescribeChanged(const ChangedSource& source) {
  std::string out = source.id.Path();
  if (!source.changed_keys) return out + ": content before the change not known";
  if (source.changed_keys->empty()) return out + ": no key changed";
  std::vector<std::string> keys(source.changed_keys->begin(), source.changed_keys->end());
  return out + ": " + std::to_string(keys.size()) + (keys.size() == 1 ? " key" : " keys") +
         " changed (" + Join(keys) + ")";
}

}  // namespace

const char* OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPlanned:
      return "planned";
    case Outcome::kRolled:
      return "rolled";
    case Outcome::kUnchanged:
      return "unchanged";
    case Outcome::kNotRolled:
      return "not-rolled";
    case Outcome::kTimedOut:
      return "timed-out";
    case Outcome::kNextRun:
      return "next-run";
  }
  return "";
}

bool AllReached(const std::vector<WorkloadResult>& results) {
  return std::none_of(results.begin(), results.end(), [](const WorkloadResult& result) {
    return result.outcome == Outcome::kNotRolled || result.outcome == Outcome::kTimedOut;
  });
}

std::string ReportText(const RollPlan& plan, const std::vector<WorkloadResult>& results,
                       bool plan_only) {
  std::string out;
  // Every line through Printable: names and details come from the cluster.
  auto line = [&out](const std::string& text) { out += Printable(text) + "\n"; };
  for (const ChangedSource& source : plan.changed) line("changed " + DescribeChanged(source));
  if (results.empty()) line("no workload reads the changed sources");
  std::map<std::string, int> counts;
  for (const WorkloadResult& result : results) {
    const WorkloadPlan& item = *result.plan;
    std::string status = StatusOf(result);
    ++counts[status];
    line(status + std::string(status.size() < 11 ? 11 - status.size() : 1, ' ') +
         ObjectPath(*item.consumer));
    line("  reads " + Join(item.reads));
    if (!item.changed.empty()) line("  changed " + Join(item.changed));
    line("  why " + item.reason);
    if (!result.observed.empty()) line("  observed " + result.observed);
    if (plan_only && !item.patch.empty()) {
      line("  hash " + (item.hash_before.empty() ? std::string("(none)") : item.hash_before) +
           " -> " + item.hash_after->hash);
      line("  patch (" + item.patch_type + ") " + item.patch);
    }
  }
  std::string summary;
  for (const auto& [status, count] : counts) {
    summary += (summary.empty() ? "" : ", ") + std::to_string(count) + " " + status;
  }
  if (!summary.empty()) line((plan_only ? "plan: " : "result: ") + summary);
  return out;
}

std::string ReportJson(const RollPlan& plan, const std::vector<WorkloadResult>& results,
                       bool plan_only) {
  nlohmann::ordered_json changed = nlohmann::ordered_json::array();
  for (const ChangedSource& source : plan.changed) {
    nlohmann::ordered_json keys = nullptr;
    if (source.changed_keys) keys = *source.changed_keys;
    changed.push_back({{"kind", SourceKindSlug(source.id.kind)},
                       {"namespace", source.id.name_space.str()},
                       {"name", source.id.name.str()},
                       {"changed_keys", keys}});
  }
  nlohmann::ordered_json workloads = nlohmann::ordered_json::array();
  for (const WorkloadResult& result : results) {
    const WorkloadPlan& item = *result.plan;
    nlohmann::ordered_json entry = {{"kind", item.consumer->kind().str()},
                                    {"namespace", item.consumer->name_space.str()},
                                    {"name", item.consumer->name().str()},
                                    {"status", StatusOf(result)},
                                    {"reason", item.reason},
                                    {"reads", item.reads},
                                    {"changed", item.changed},
                                    {"hash_before", item.hash_before},
                                    {"hash_after", item.hash_after ? item.hash_after->hash : ""}};
    if (!plan_only) entry["observed"] = result.observed;
    if (plan_only && !item.patch.empty()) {
      entry["patch_type"] = item.patch_type;
      entry["patch"] = nlohmann::ordered_json::parse(item.patch);
    }
    workloads.push_back(std::move(entry));
  }
  nlohmann::ordered_json document = {{"dry_run", plan_only},
                                     {"changed", changed},
                                     {"workloads", workloads},
                                     {"all_reached", plan_only || AllReached(results)}};
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace rollcall::roll
