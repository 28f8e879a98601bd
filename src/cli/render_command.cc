// `rollcall render`: the post-renderer. All or nothing on stdout (design.md,
// decision 3): the output is written only once the whole stream rendered.
#include <unistd.h>

#include <cxxopts.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/analysis_flags.h"
#include "cli/commands.h"
#include "cli/helm_terminal.h"
#include "cli/input.h"
#include "cli/output.h"
#include "cli/report_destination.h"
#include "rollcall/input_error.h"
#include "rollcall/inputs.h"
#include "rollcall/jobs.h"
#include "rollcall/lint.h"
#include "rollcall/location.h"
#include "rollcall/printable.h"
#include "rollcall/render.h"
#include "rollcall/report.h"

namespace rollcall::cli {
namespace {

// Where --report goes and in which format (--report-format, $ROLLCALL_REPORT_FORMAT):
// JSON for scripts, or text, the lines render prints on stderr, for a person reading
// it after Helm or Argo CD hid render's stderr.
struct ReportTarget {
  std::string path;  // "" for no report
  ReportFormat format = ReportFormat::kJson;
};

// Writes the report; a failure is a warning: the run's outcome stands.
void WriteReportText(const ReportTarget& target, const std::string& text) {
  if (target.path.empty()) return;
  std::string error = WriteReportDestination(target.path, text);
  if (!error.empty()) std::cerr << StderrLine("warning: " + error);
}

// The report: written whatever the outcome, since it may be the only place a user
// sees why a deploy stopped.
void WriteReportFile(const ReportTarget& target, const Report& report) {
  if (target.path.empty()) return;
  std::ostringstream text;
  WriteReport(text, report, target.format, ReportStyle{});
  WriteReportText(target, text.str());
}

void WriteErrorReportFile(const ReportTarget& target, const std::string& error) {
  WriteReportText(target, target.format == ReportFormat::kText
                              ? "error: " + Printable(error) + "\n"
                              : nlohmann::json{{"error", error}}.dump(2) + "\n");
}

// Under Helm, with no --report, what render says goes to the terminal too, since Helm
// hides it (helm_terminal.h): each line of the text report, as render prints it.
void EchoUnderHelm(HelmHost host, const ReportTarget& target, int exit_code,
                   const std::string& text) {
  if (!target.path.empty()) return;  // the user chose where the findings go
  std::string lines;
  std::string::size_type start = 0;
  while (start < text.size()) {
    std::string::size_type end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines += "rollcall: " + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  EchoWhereHelmHides(host, exit_code, lines);
}

std::string TextReport(const Report& report) {
  std::ostringstream text;
  WriteReport(text, report, ReportFormat::kText, ReportStyle{});
  return text.str();
}

// "json" or "text"; anything else is a usage error.
ReportFormat ParseRenderReportFormat(const std::string& name) {
  if (name.empty() || name == "json") return ReportFormat::kJson;
  if (name == "text") return ReportFormat::kText;
  throw UsageError("--report-format must be json or text, got '" + name + "'");
}

// A usage error goes to the report too: under Helm 4 and Argo CD the report may be
// the only place a user looks. The report's path and format are read from the
// arguments as cxxopts would (`--report FILE`, `--report=FILE`), else from the
// environment, since the arguments as a whole did not parse.
void ReportUsageError(const std::vector<std::string>& args, const std::string& error) {
  ReportTarget target;
  std::string format;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--") break;
    if (args[i] == "--report" && i + 1 < args.size()) target.path = args[i + 1];
    if (args[i].rfind("--report=", 0) == 0) target.path = args[i].substr(9);
    if (args[i] == "--report-format" && i + 1 < args.size()) format = args[i + 1];
    if (args[i].rfind("--report-format=", 0) == 0) format = args[i].substr(16);
  }
  target.path = FlagOrEnv(target.path, "ROLLCALL_REPORT");
  format = FlagOrEnv(format, "ROLLCALL_REPORT_FORMAT");
  target.format = format == "text" ? ReportFormat::kText : ReportFormat::kJson;
  if (target.path.empty() || !ReportDestinationProblem(target.path).empty()) return;
  WriteErrorReportFile(target, error);
}

// The rollout on stderr (RolloutLines), gathered into writes of up to 64 KiB:
// std::cerr flushes after every insertion, and a stream of a hundred thousand
// consumers that all roll is megabytes of lines.
void PrintRollout(const Rollout& rollout) {
  constexpr std::size_t kWrite = std::size_t{1} << 16;
  std::string lines;
  for (const std::string& line : RolloutLines(rollout)) {
    lines += StderrLine("rollout: " + line);
    if (lines.size() >= kWrite) {
      std::cerr << lines;
      lines.clear();
    }
  }
  std::cerr << lines;
}

}  // namespace

cxxopts::Options RenderOptionsSpec() {
  cxxopts::Options spec("rollcall render",
                        "Reads a Kubernetes YAML stream on stdin and writes it to stdout with a "
                        "config hash on every pod template that reads a Secret or ConfigMap.");
  AddAnalysisOptions(spec);
  AddFindingOptions(spec, /*fail_on=*/true);
  spec.add_options("Output")("report",
                             "also write findings, summary and rollout to FILE: - for standard "
                             "error, /dev/tty for the terminal (default: $ROLLCALL_REPORT; Helm "
                             "hides a post-renderer's stderr)",
                             cxxopts::value<std::string>(), "FILE")(
      "report-format",
      "json, or text as render prints on stderr (default: $ROLLCALL_REPORT_FORMAT, else json)",
      cxxopts::value<std::string>(),
      "FORMAT")("hmac-key-file",
                "HMAC-SHA-256 the config hash with this key (default: "
                "$ROLLCALL_HMAC_KEY_FILE); see the README on why",
                cxxopts::value<std::string>(), "FILE")("h,help", "show this help");
  return spec;
}

int RunRender(const std::vector<std::string>& args) {
  cxxopts::Options spec = RenderOptionsSpec();
  AnalysisFlags flags;
  ReportTarget report_target;
  std::string hmac_key_file;
  try {
    std::optional<cxxopts::ParseResult> maybe = ParseOrHelp(spec, args);
    if (!maybe) return kExitOk;
    const cxxopts::ParseResult& parsed = *maybe;
    if (!parsed.unmatched().empty()) {
      throw UsageError("render takes no arguments, got '" + parsed.unmatched()[0] +
                       "' (the stream comes on stdin)");
    }
    flags = ReadAnalysisFlags(parsed);
    report_target.path = FlagOrEnv(StringOption(parsed, "report"), "ROLLCALL_REPORT");
    report_target.format = ParseRenderReportFormat(
        FlagOrEnv(StringOption(parsed, "report-format"), "ROLLCALL_REPORT_FORMAT"));
    hmac_key_file = FlagOrEnv(StringOption(parsed, "hmac-key-file"), "ROLLCALL_HMAC_KEY_FILE");
    if (!report_target.path.empty()) {
      if (std::string problem = ReportDestinationProblem(report_target.path); !problem.empty()) {
        throw UsageError(problem);
      }
    }
  } catch (const cxxopts::exceptions::exception& e) {
    const std::string error = std::string(e.what()) + " (see rollcall render --help)";
    PrintError(error);
    ReportUsageError(args, error);
    EchoUnderHelm(DetectHelmHost(), report_target, kExitInput, "error: " + Printable(error));
    return kExitInput;
  } catch (const UsageError& e) {
    PrintError(e.what());
    ReportUsageError(args, e.what());
    EchoUnderHelm(DetectHelmHost(), report_target, kExitInput, "error: " + Printable(e.what()));
    return kExitInput;
  }

  // A reader that went away is an error to report, not a silent death by SIGPIPE.
  IgnoreBrokenPipe();
  try {
    PreparedAnalysis prepared = PrepareAnalysis(flags);
    if (prepared.previous != nullptr && prepared.previous->empty() &&
        !flags.previous_release.empty()) {
      std::cerr << StderrLine("release " + flags.previous_release + " not found in namespace " +
                              flags.name_space + ": a first install");
    }
    RenderOptions options;
    options.default_namespace = prepared.options.default_namespace;
    options.config = prepared.options.config;
    options.jobs = prepared.options.jobs;
    options.previous = prepared.previous.get();
    options.state = std::move(prepared.options.state);
    options.state_hook_words = std::move(prepared.options.state_hook_words);
    options.lookup = std::move(prepared.options.lookup);
    options.limits = flags.limits;
    if (!hmac_key_file.empty()) options.hmac_key = ReadHmacKey(hmac_key_file);
    // Run by hand with nothing piped in, it would wait in silence.
    if (isatty(STDIN_FILENO) != 0) {
      std::cerr << StderrLine(
          "reading a Kubernetes YAML stream from standard input (a terminal): end it with "
          "Ctrl-D, or see rollcall --help");
    }
    Stream stream(ReadStandardInput(options.limits.max_input_bytes), kStandardInput,
                  options.limits.max_documents);
    RenderPlan plan(stream, options);
    RenderResult& result = plan.result();
    PrintFindings(result.findings, result.summary);
    const HelmHost host = DetectHelmHost();
    std::string hooks_note = HiddenHooksNote(host, result.findings);
    if (!hooks_note.empty()) {
      std::cerr << StderrLine(hooks_note);
      hooks_note += "\n";  // a line of the text echoed below
    }
    const FailOn fail_on = flags.fail_on.value_or(FailOn::kNever);
    bool stopped = StopsRender(result.findings, fail_on);
    if (stopped) {
      // Nothing will be applied: a rollout report would claim more than happens.
      result.rollout.clear();
      std::cerr << "rollcall: rollout: nothing (render stopped)\n";
    }
    PrintRollout(result.rollout);
    Report report{std::move(result.findings), result.summary, std::move(result.rollout), stopped};
    report.config = prepared.options.config.path;
    if (stopped) {
      WriteReportFile(report_target, report);
      const std::string reason =
          StopReason(report.findings, fail_on, flags.fail_on_option) + "; nothing written";
      PrintError(reason);
      EchoUnderHelm(host, report_target, kExitFindings,
                    TextReport(report) + hooks_note + "error: " + Printable(reason) + "\n");
      return kExitFindings;
    }
    // The report goes last: it says whether the output reached its reader.
    int written = WriteOutput(stream.bytes(), plan, report.error);
    if (written != kExitOk) {
      report.rollout.clear();
      report.stopped = true;
    }
    WriteReportFile(report_target, report);
    // A clean run says nothing there; one with findings or a failed write does.
    if (!report.findings.empty() || written != kExitOk) {
      EchoUnderHelm(host, report_target, written, TextReport(report) + hooks_note);
    }
    return written;
  } catch (const InputError& e) {
    PrintError(e.Describe());
    WriteErrorReportFile(report_target, e.Describe());
    EchoUnderHelm(DetectHelmHost(), report_target, kExitInput, "error: " + Printable(e.Describe()));
    return kExitInput;
  }
}

}  // namespace rollcall::cli
