#include "rollcall/name_patterns.h"

#include <algorithm>

#include "rollcall/input_error.h"

namespace rollcall {
namespace {

[[noreturn]] void Refuse(const std::string& what) {
  throw InputError(Location{"run-once patterns", 0, 0, 0}, what);
}

}  // namespace

NamePatterns::NamePatterns(const std::vector<std::string>& patterns) {
  if (patterns.size() > kMaxPatterns) {
    Refuse(std::to_string(patterns.size()) + " patterns, more than the limit of " +
           std::to_string(kMaxPatterns));
  }
  RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(kMaxProgramBytes);
  compiled_.reserve(patterns.size());
  for (const std::string& pattern : patterns) {
    if (pattern.size() > kMaxPatternBytes) {
      Refuse("a pattern of " + std::to_string(pattern.size()) + " bytes, more than the limit of " +
             std::to_string(kMaxPatternBytes));
    }
    auto re = std::make_unique<RE2>(pattern, options);
    if (!re->ok()) Refuse("\"" + pattern + "\" is not a valid RE2: " + re->error());
    if (re->ProgramSize() > kMaxProgramSize) {
      Refuse("\"" + pattern + "\" compiles to " + std::to_string(re->ProgramSize()) +
             " RE2 instructions, more than the limit of " + std::to_string(kMaxProgramSize) +
             " (a name has at most " + std::to_string(kMaxNameBytes) +
             " bytes: a narrower pattern says the same)");
    }
    program_sizes_ += static_cast<std::size_t>(re->ProgramSize());
    compiled_.push_back(std::move(re));
  }
}

bool NamePatterns::Matches(std::string_view name) {
  if (compiled_.empty() || name.size() > kMaxNameBytes) return false;
  const std::size_t work = (name.size() + 1) * program_sizes_;
  if (work > work_left_) {
    Refuse("matching " + std::to_string(compiled_.size()) +
           " patterns against the names of this input's Jobs is more work than the limit of " +
           std::to_string(kMaxMatchWork) +
           " (name bytes times RE2 instructions, over all Jobs); use fewer or smaller patterns");
  }
  work_left_ -= work;
  return std::any_of(compiled_.begin(), compiled_.end(), [name](const std::unique_ptr<RE2>& re) {
    return RE2::PartialMatch(name, *re);
  });
}

}  // namespace rollcall
