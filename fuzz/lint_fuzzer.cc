// Lint on arbitrary bytes read as stdin (`rollcall lint -`): loading, the analysis,
// every rule, and every report format. Loading either succeeds or throws InputError;
// the JSON and SARIF reports must be JSON that parses.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "fuzz_check.h"
#include "rollcall/analysis.h"
#include "rollcall/chart_findings.h"
#include "rollcall/input_error.h"
#include "rollcall/inputs.h"
#include "rollcall/lint.h"
#include "rollcall/report.h"

using rollcall::fuzz::Check;

namespace {

// Loads the bytes through the real loader, as `rollcall lint -` reads stdin. The bytes
// are handed in as what "-" reads (fuzz inputs are far under the input limit); the
// check makes sure they were what got analysed: reading file descriptor 0 instead
// analysed the same empty input every time, whatever the fuzzer generated.
rollcall::Inputs LoadAsStdin(const std::string& bytes) {
  rollcall::InputOptions options;
  options.standard_input = [&bytes](std::size_t) { return rollcall::InputBytes(bytes); };
  rollcall::Inputs inputs = rollcall::LoadInputs({"-"}, options);
  Check(inputs.streams.size() == 1 && inputs.streams.front()->bytes() == bytes,
        "lint did not read the fuzzer's bytes as stdin");
  return inputs;
}

// Everything `rollcall lint` does after reading its input.
void Lint(rollcall::Inputs inputs) {
  rollcall::AnalysisOptions options;
  options.loose_markers = std::move(inputs.loose_markers);
  rollcall::Analysis analysis(std::move(inputs.documents), std::move(options),
                              std::move(inputs.counted_not_objects));
  rollcall::Report report;
  report.findings = rollcall::RunRules(analysis, std::move(inputs.findings));
  rollcall::MapToTemplates(inputs, report.findings);
  report.summary = analysis.Summary();
  for (rollcall::ReportFormat format :
       {rollcall::ReportFormat::kText, rollcall::ReportFormat::kJson,
        rollcall::ReportFormat::kSarif, rollcall::ReportFormat::kGithub}) {
    rollcall::ReportStyle style;
    style.color = format == rollcall::ReportFormat::kText;  // colour codes are text-only
    style.tool_version = "fuzz";
    std::ostringstream out;
    rollcall::WriteReport(out, report, format, style);
    if (format == rollcall::ReportFormat::kJson || format == rollcall::ReportFormat::kSarif) {
      Check(nlohmann::json::accept(out.str()), "the JSON or SARIF report is not JSON");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  try {
    Lint(LoadAsStdin(std::string(reinterpret_cast<const char*>(data), size)));
  } catch (const rollcall::InputError&) {
    // Refused with a message (exit 2), as the CLI does for anything that throws it.
  }
  rollcall::fuzz::ForgetInterned();  // every record of the input is gone
  return 0;
}
