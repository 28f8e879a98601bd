// Words of a command line printed for a person to run in a POSIX shell
// (`consumers --restart-commands`): whatever a word holds, the shell reads it back
// as that one word, with no expansion, no second command and no comment.
#pragma once

#include <string>
#include <string_view>

namespace rollcall {

// `word` as it is when it holds only characters no shell gives a meaning to
// (letters, digits and "%+,-./:=@_"), else in single quotes, each ' inside written
// as '\''. An empty word is ''.
std::string ShellWord(std::string_view word);

}  // namespace rollcall
