// The benchmark's baseline: reads a stream on stdin, splits it into documents the
// way rollcall does (SplitDocuments) and parses each with yaml-cpp's YAML::Load,
// one thread, keeping nothing. What any tool that reads every document with
// yaml-cpp pays at least; rollcall's render is measured against it.
//
// `parse_baseline --events`: yaml-cpp's scanner and parser alone, the same documents
// read into an event handler that does nothing (what YAML::Load does but build the
// tree): with the baseline, it says what of yaml-cpp's time is the scan and what the
// tree (docs/performance.md).
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <sstream>

#include "baseline_main.h"

namespace {

class IgnoreEvents : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

}  // namespace

int main(int argc, char** argv) {
  const bool events = rollcall::bench::HasFlag(argc, argv, "--events");
  return rollcall::bench::ParseEveryDocument(
      argc, argv, "parse_baseline", [events](std::string_view text) -> std::optional<std::string> {
        try {
          if (!events) {
            YAML::Load(std::string(text));  // the tree is freed at once
            return std::nullopt;
          }
          // As YAML::Load reads its string: through a stream, the first document.
          std::stringstream in{std::string(text)};
          YAML::Parser parser(in);
          IgnoreEvents ignore;
          parser.HandleNextDocument(ignore);
        } catch (const YAML::Exception& e) {
          return std::string(e.what());
        }
        return std::nullopt;
      });
}
