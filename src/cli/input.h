// Reading the input of a subcommand, bounded before anything parses it.
#pragma once

#include <cstddef>
#include <istream>
#include <string>

namespace rollcall::cli {

// Reads all of `in`; throws InputError naming `origin` when it holds more than
// `max_bytes`.
std::string ReadAll(std::istream& in, const std::string& origin, std::size_t max_bytes);

// The namespace for objects that name none: `flag`, else $HELM_NAMESPACE, else
// "default" (Helm sets HELM_NAMESPACE for its post-renderer).
std::string DefaultNamespace(const std::string& flag);

}  // namespace rollcall::cli
