#include "rollcall/baseline.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>
#include <utility>

#include "rollcall/input_error.h"
#include "rollcall/location.h"
#include "rollcall/regular_file.h"

namespace rollcall {
namespace {

// ordered_json: keys come back in the order the file has them, which is how a
// key's line is found (Layout), and are written in the documented order.
using Json = nlohmann::ordered_json;

constexpr int kVersion = 1;
constexpr const char* kAbout =
    "Findings rollcall lint --baseline accepts. Replace each reason with why the finding may "
    "stay; delete an entry to see its finding again. Written by rollcall lint --write-baseline "
    "(docs/lint.md, Baseline).";

// --- where things are in the file ----------------------------------------------
//
// nlohmann's tree has no positions. The file has already parsed as JSON when this
// runs, so a scan that only tracks strings and brackets finds the lines: of each key
// of the top-level object, of each element of an array in it (the entries, once the
// top level is known to hold no other array), and of each key of those elements.

struct Layout {
  std::vector<std::size_t> top_keys;
  std::vector<std::size_t> entries;
  std::vector<std::vector<std::size_t>> entry_keys;
};

Layout ScanLayout(std::string_view text) {
  Layout out;
  std::vector<char> open;  // '{' or '[', outermost first
  bool expect_key = false;
  bool expect_element = false;
  std::size_t line = 1;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (c == '\n' || c == ' ' || c == '\t' || c == '\r') continue;
    const bool in_entries = open.size() == 2 && open[0] == '{' && open[1] == '[';
    if (expect_element && in_entries && c != ']') {
      out.entries.push_back(line);
      out.entry_keys.emplace_back();
    }
    expect_element = false;
    if (c == '"') {
      if (expect_key && open.size() == 1) out.top_keys.push_back(line);
      if (expect_key && open.size() == 3 && open[1] == '[' && !out.entry_keys.empty()) {
        out.entry_keys.back().push_back(line);
      }
      expect_key = false;
      // Valid JSON holds no raw line break in a string: only the closing quote ends it.
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
      }
      continue;
    }
    switch (c) {
      case '{':
        open.push_back(c);
        expect_key = true;
        break;
      case '[':
        open.push_back(c);
        expect_element = open.size() == 2 && open[0] == '{';
        break;
      case '}':
      case ']':
        if (!open.empty()) open.pop_back();
        expect_key = false;
        break;
      case ',':
        if (!open.empty() && open.back() == '{') expect_key = true;
        expect_element = open.size() == 2 && open[0] == '{' && open[1] == '[';
        break;
      default:
        break;
    }
  }
  return out;
}

std::size_t At(const std::vector<std::size_t>& lines, std::size_t index) {
  return index < lines.size() ? lines[index] : 0;
}

// --- reading -------------------------------------------------------------------

// Messages name keys, never quote a value: --baseline may name any file, a
// Secret's manifest included (config.cc does the same).
[[noreturn]] void Fail(const std::string& file, std::size_t line, const std::string& what) {
  throw InputError(Location{file, 0, line, 0}, what);
}

// The line and column of a byte offset (nlohmann counts bytes read, from 1).
std::pair<std::size_t, std::size_t> LineAndColumn(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

// nlohmann's message without its prefix and without the "; last read: '…'" part,
// which quotes the file's text.
std::string ParseProblem(const std::string& what) {
  std::string out = what;
  if (std::size_t colon = out.find(": "); colon != std::string::npos) out.erase(0, colon + 2);
  if (std::size_t quoted = out.find("; last read:"); quoted != std::string::npos) {
    out.erase(quoted);
  }
  return out;
}

BaselineEntry ReadEntry(const Json& item, const std::string& file, std::size_t line,
                        const std::vector<std::size_t>& key_lines) {
  if (!item.is_object()) Fail(file, line, "an entry must be an object");
  if (item.size() != key_lines.size()) Fail(file, line, "the entry has a key written twice");
  BaselineEntry entry;
  entry.line = line;
  std::map<std::string, std::string*> fields = {
      {"rule", &entry.rule},           {"file", &entry.file},       {"object", &entry.object},
      {"reference", &entry.reference}, {"message", &entry.message}, {"reason", &entry.reason}};
  std::size_t index = 0;
  for (const auto& [key, value] : item.items()) {
    const std::size_t key_line = At(key_lines, index++);
    auto field = fields.find(key);
    if (field == fields.end()) {
      Fail(file, key_line,
           "unknown key \"" + key +
               "\" in an entry (an entry has rule, file, object, reference, message, reason)");
    }
    if (!value.is_string()) Fail(file, key_line, "\"" + key + "\" must be a string");
    *field->second = value.get<std::string>();
  }
  if (entry.rule.empty()) Fail(file, line, "the entry has no \"rule\"");
  if (entry.file.empty()) Fail(file, line, "the entry has no \"file\"");
  if (entry.reason.find_first_not_of(" \t\r\n") == std::string::npos) {
    Fail(file, line, "the entry has no \"reason\": say why the finding may stay");
  }
  return entry;
}

// --- pairing -------------------------------------------------------------------

using Identity = std::tuple<std::string, std::string, std::string, std::string>;

Identity IdentityOf(const BaselineEntry& entry) {
  return {entry.rule, entry.file, entry.object, entry.reference};
}
Identity IdentityOf(const Finding& finding) {
  return {finding.rule, BaselineFile(finding), finding.object, finding.reference};
}

constexpr std::size_t kUnpaired = static_cast<std::size_t>(-1);

// For each finding, the index of the entry it pairs with, or kUnpaired. One entry
// accepts one finding: two equal findings need two entries.
std::vector<std::size_t> Pair(const std::vector<BaselineEntry>& entries,
                              const std::vector<const Finding*>& findings) {
  std::map<Identity, std::vector<std::size_t>> by_identity;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    by_identity[IdentityOf(entries[i])].push_back(i);
  }
  std::vector<bool> used(entries.size(), false);
  std::vector<std::size_t> paired(findings.size(), kUnpaired);
  for (bool same_message : {true, false}) {
    for (std::size_t f = 0; f < findings.size(); ++f) {
      if (paired[f] != kUnpaired) continue;
      auto candidates = by_identity.find(IdentityOf(*findings[f]));
      if (candidates == by_identity.end()) continue;
      for (std::size_t e : candidates->second) {
        if (used[e] || (same_message && entries[e].message != findings[f]->message)) continue;
        used[e] = true;
        paired[f] = e;
        break;
      }
    }
  }
  return paired;
}

bool EntryOrder(const BaselineEntry& a, const BaselineEntry& b) {
  return std::tie(a.file, a.rule, a.object, a.reference, a.message, a.reason) <
         std::tie(b.file, b.rule, b.object, b.reference, b.message, b.reason);
}

}  // namespace

// --- the file ------------------------------------------------------------------

Baseline LoadBaseline(const std::string& path, std::size_t max_bytes) {
  RegularFileRead how = RegularFileRead::Input("the baseline file", max_bytes);
  how.not_standard_input = true;
  return ParseBaseline(ReadRegularFile(path, path, how), path);
}

Baseline ParseBaseline(std::string_view text, const std::string& file) {
  Json document;
  try {
    document = Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& error) {
    auto [line, column] = LineAndColumn(text, error.byte > 0 ? error.byte - 1 : 0);
    throw InputError(Location{file, 0, line, column},
                     "the baseline file is not JSON: " + ParseProblem(error.what()));
  }
  if (!document.is_object()) {
    Fail(file, 1, "a baseline file is a JSON object with \"version\" and \"entries\"");
  }
  const Layout layout = ScanLayout(text);
  if (document.size() != layout.top_keys.size()) Fail(file, 0, "a key is written twice");
  const Json* entries = nullptr;
  bool has_version = false;
  std::size_t index = 0;
  for (const auto& [key, value] : document.items()) {
    const std::size_t line = At(layout.top_keys, index++);
    if (key == "about") {
      if (!value.is_string()) Fail(file, line, "\"about\" must be a string");
    } else if (key == "version") {
      if (!value.is_number_integer() || value.get<long long>() != kVersion) {
        Fail(file, line,
             "\"version\" must be " + std::to_string(kVersion) +
                 ", the baseline version this rollcall reads");
      }
      has_version = true;
    } else if (key == "entries") {
      if (!value.is_array()) Fail(file, line, "\"entries\" must be a list");
      entries = &value;
    } else {
      Fail(file, line,
           "unknown key \"" + key + "\" (a baseline file has about, version and entries)");
    }
  }
  if (!has_version) Fail(file, 1, "the baseline file has no \"version\"");
  if (entries == nullptr) Fail(file, 1, "the baseline file has no \"entries\"");
  Baseline baseline;
  baseline.file = file;
  static const std::vector<std::size_t> kNoLines;
  for (std::size_t i = 0; i < entries->size(); ++i) {
    const std::vector<std::size_t>& key_lines =
        i < layout.entry_keys.size() ? layout.entry_keys[i] : kNoLines;
    baseline.entries.push_back(ReadEntry((*entries)[i], file, At(layout.entries, i), key_lines));
  }
  return baseline;
}

std::string BaselineText(const Baseline& baseline) {
  std::vector<BaselineEntry> sorted = baseline.entries;
  std::sort(sorted.begin(), sorted.end(), EntryOrder);
  Json entries = Json::array();
  for (const BaselineEntry& entry : sorted) {
    Json item;
    item["rule"] = entry.rule;
    item["file"] = entry.file;
    item["object"] = entry.object;
    item["reference"] = entry.reference;
    item["message"] = entry.message;
    item["reason"] = entry.reason;
    entries.push_back(std::move(item));
  }
  Json document;
  document["about"] = kAbout;
  document["version"] = kVersion;
  document["entries"] = std::move(entries);
  // Bytes that are not UTF-8 (a Latin-1 file name) become U+FFFD rather than throw.
  return document.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

// --- using it ------------------------------------------------------------------

void BaselineScope::AddFile(std::string file) { files_.insert(std::move(file)); }

void BaselineScope::AddDirectory(std::string directory) {
  while (!directory.empty() && directory.back() == '/') directory.pop_back();
  if (directory == ".") directory.clear();
  directories_.push_back(std::move(directory));
}

bool BaselineScope::Covers(const std::string& file) const {
  if (files_.count(file) > 0) return true;
  return std::any_of(directories_.begin(), directories_.end(), [&](const std::string& dir) {
    return dir.empty() || (file.size() > dir.size() && file.compare(0, dir.size(), dir) == 0 &&
                           file[dir.size()] == '/');
  });
}

std::string BaselineFile(const Finding& finding) {
  return finding.where.origin.empty() ? std::string(kStandardInput) : finding.where.origin;
}

BaselineOutcome ApplyBaseline(const Baseline& baseline, const BaselineScope& scope,
                              std::vector<Finding>& findings) {
  BaselineOutcome outcome;
  outcome.file = baseline.file;
  std::vector<const Finding*> candidates;
  for (const Finding& finding : findings) candidates.push_back(&finding);
  const std::vector<std::size_t> paired = Pair(baseline.entries, candidates);
  std::vector<bool> used(baseline.entries.size(), false);
  std::vector<Finding> kept;
  for (std::size_t f = 0; f < findings.size(); ++f) {
    if (paired[f] == kUnpaired) {
      kept.push_back(std::move(findings[f]));
      continue;
    }
    used[paired[f]] = true;
    outcome.accepted.push_back({std::move(findings[f]), baseline.entries[paired[f]].reason});
  }
  findings = std::move(kept);
  for (std::size_t e = 0; e < baseline.entries.size(); ++e) {
    if (!used[e] && scope.Covers(baseline.entries[e].file)) {
      outcome.stale.push_back(baseline.entries[e]);
    }
  }
  return outcome;
}

Baseline NewBaseline(const std::vector<Finding>& findings, const Baseline& previous,
                     const BaselineScope& scope, std::string file) {
  std::vector<const Finding*> accepted;
  for (const Finding& finding : findings) {
    if (finding.severity != Severity::kInfo) accepted.push_back(&finding);
  }
  const std::vector<std::size_t> paired = Pair(previous.entries, accepted);
  std::vector<bool> used(previous.entries.size(), false);
  Baseline out;
  out.file = std::move(file);
  for (std::size_t f = 0; f < accepted.size(); ++f) {
    const Finding& finding = *accepted[f];
    BaselineEntry entry;
    entry.rule = finding.rule;
    entry.file = BaselineFile(finding);
    entry.object = finding.object;
    entry.reference = finding.reference;
    entry.message = finding.message;
    entry.reason = kDefaultBaselineReason;
    if (paired[f] != kUnpaired) {
      used[paired[f]] = true;
      entry.reason = previous.entries[paired[f]].reason;
    }
    out.entries.push_back(std::move(entry));
  }
  for (std::size_t e = 0; e < previous.entries.size(); ++e) {
    if (!used[e] && !scope.Covers(previous.entries[e].file)) {
      BaselineEntry kept = previous.entries[e];
      kept.line = 0;
      out.entries.push_back(std::move(kept));
    }
  }
  std::sort(out.entries.begin(), out.entries.end(), EntryOrder);
  return out;
}

Finding StaleEntryFinding(const BaselineEntry& entry, const std::string& baseline_file) {
  Finding finding;
  finding.rule = "stale-baseline-entry";
  finding.severity = Severity::kInfo;
  finding.where = Location{baseline_file, 0, entry.line, 0};
  finding.object = entry.object;
  finding.reference = entry.reference;
  std::string what = entry.object.empty() ? entry.file : entry.object;
  if (!entry.reference.empty()) what += ", " + entry.reference;
  if (!entry.object.empty()) what += " (" + entry.file + ")";
  finding.message = "the baseline accepts " + entry.rule + " on " + what +
                    ", and no finding matches it any more: remove the entry (or write the "
                    "baseline again)";
  return finding;
}

}  // namespace rollcall
