// Reading a file named by a path: every file rollcall reads goes through here (the
// paths lint and consumers take, --state, --previous, --config, --hmac-key-file,
// a chart's Chart.yaml and templates, krm's function config).
//
// Only a regular file is read. A named pipe with no writer would block open(2)
// forever, one with a writer (/dev/stdin in a pipe) would take the bytes meant for
// another reader, and a directory reads as nothing: all of them are refused, with
// the path and what it is, before a byte is read. The file is opened without
// blocking (O_NONBLOCK), the type checked on the open descriptor (fstat), then read
// up to a limit checked while reading. Standard input ("-") is read elsewhere
// (inputs.h's ReadStandardInput): it is the one documented way to read a pipe.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

#include "rollcall/input_bytes.h"

namespace rollcall {

struct RegularFileRead {
  // The file as its messages name it, the subject of a sentence: "the state file",
  // "the HMAC key file". Empty for a manifest: its path says enough.
  std::string what;
  std::size_t max_bytes = 0;
  // What raises `max_bytes`, named in the message when the file is over it
  // ("--max-input-bytes"); empty when nothing does.
  std::string limit_option;
  // False: a symbolic link as the last part of the path is refused (O_NOFOLLOW),
  // as for the files of a directory walk.
  bool follow_symlink = true;
  // True: the file may not be the one open as standard input, which carries the
  // manifest (--hmac-key-file /dev/stdin with a file redirected to stdin).
  bool not_standard_input = false;
  // Appended to the message about a file that is not a regular one: what to do
  // instead (lint: "-" reads a stream).
  std::string not_regular_hint;

  // An input file held to the input limit, --max-input-bytes: how most files are read.
  static RegularFileRead Input(std::string what, std::size_t max_bytes) {
    RegularFileRead how;
    how.what = std::move(what);
    how.max_bytes = max_bytes;
    how.limit_option = "--max-input-bytes";
    return how;
  }
};

// The bytes of the regular file at `path`, read as standard input is (input_bytes.h):
// the form for a stream, read once and held once. Throws InputError, located at
// `origin` (the path as the user sees it), when it cannot be opened, is not a
// regular file ("is a named pipe, not a regular file"), or holds more than
// `how.max_bytes`.
InputBytes ReadRegularFileBytes(const std::string& path, const std::string& origin,
                                const RegularFileRead& how);
// The same as a string: for the small files read whole into a parser (a config, a
// baseline, a key).
std::string ReadRegularFile(const std::string& path, const std::string& origin,
                            const RegularFileRead& how);

}  // namespace rollcall
