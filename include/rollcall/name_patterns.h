// RE2 patterns matched against object names (the run-once Jobs of --run-once-pattern,
// `runOnce` in .rollcall.yaml and `runOncePatterns` in a KRM function config).
// They are compiled once per run, not once per Job: a costly pattern such as
// `\pL{300}` over 500 Jobs took a minute when each Job compiled it again. A config
// found in a repository is untrusted, so the work of matching is bounded too:
//  - the patterns' number, their text and their compiled programs (a program's size
//    is what RE2 may do per byte of a name when its DFA gives up);
//  - the names: one longer than an object's name can be (253 bytes) is no Job the
//    API server creates, and is never matched (64 patterns against one 100 KB name
//    took 81 s);
//  - all the matches of a run together, in name bytes times program size.
#pragma once

#include <re2/re2.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rollcall {

class NamePatterns {
 public:
  static constexpr std::size_t kMaxPatterns = 64;
  static constexpr std::size_t kMaxPatternBytes = 1024;
  // The memory RE2 may use for one compiled pattern (RE2's own default): a larger
  // program is refused as "pattern too large".
  static constexpr std::int64_t kMaxProgramBytes = std::int64_t{8} << 20;
  // Instructions of one compiled pattern: `.{253}`, which matches any name, is 2,028;
  // `\pL{300}` is 357,904.
  static constexpr int kMaxProgramSize = 4096;
  static constexpr std::size_t kMaxNameBytes = 253;
  // Name bytes times program size over all the matches of a run: 1,000 Jobs of
  // 253-byte names against 16 patterns of 250 instructions each.
  static constexpr std::size_t kMaxMatchWork = std::size_t{1} << 30;

  NamePatterns() = default;
  // Compiles every pattern. Throws InputError (origin "run-once patterns") on too
  // many patterns, one too long, or one RE2 refuses; the message quotes the pattern,
  // which comes from the command line or a config, never from a manifest.
  explicit NamePatterns(const std::vector<std::string>& patterns);

  // True when any pattern matches part of `name` (RE2::PartialMatch); false for a
  // name over kMaxNameBytes. Throws InputError once the run's matches would pass
  // kMaxMatchWork.
  bool Matches(std::string_view name);

 private:
  std::vector<std::unique_ptr<RE2>> compiled_;
  std::size_t program_sizes_ = 0;  // of all the patterns
  std::size_t work_left_ = kMaxMatchWork;
};

}  // namespace rollcall
