// RE2 patterns matched against object names (the run-once Jobs of --run-once-pattern,
// `runOnce` in .rollcall.yaml and `runOncePatterns` in a KRM function config).
// They are compiled once per run, not once per Job: a costly pattern such as
// `\pL{300}` over 500 Jobs took a minute when each Job compiled it again. Their
// number and size are bounded, since a config found in a repository is untrusted.
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

  NamePatterns() = default;
  // Compiles every pattern. Throws InputError (origin "run-once patterns") on too
  // many patterns, one too long, or one RE2 refuses; the message quotes the pattern,
  // which comes from the command line or a config, never from a manifest.
  explicit NamePatterns(const std::vector<std::string>& patterns);

  // True when any pattern matches part of `name` (RE2::PartialMatch).
  bool Matches(std::string_view name) const;

 private:
  std::vector<std::unique_ptr<RE2>> compiled_;
};

}  // namespace rollcall
