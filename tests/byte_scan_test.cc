// The byte scanners the text checks run on every byte of every document: sixteen
// bytes at a time where the machine allows, so each test puts the byte that stops
// the scan at every position of a chunk and past its end.
#include "rollcall/byte_scan.h"

#include <gtest/gtest.h>

#include <string>

namespace rollcall {
namespace {

TEST(SkipPlainAscii, StopsAtTheFirstByteThatIsNotPrintableAsciiLineFeedOrTab) {
  for (char stop : {'\0', '\x01', '\r', '\x1f', '\x7f', '\x80', '\xc3', '\xff'}) {
    for (std::size_t at = 0; at < 40; ++at) {
      std::string text(40, 'a');
      text[3] = '\n';
      text[5] = '\t';
      text[7] = ' ';
      text[9] = '~';
      if (at == 3 || at == 5 || at == 7 || at == 9) continue;
      text[at] = stop;
      EXPECT_EQ(SkipPlainAscii(text, 0), at)
          << int(static_cast<unsigned char>(stop)) << " at " << at;
      EXPECT_EQ(SkipPlainAscii(text, at), at);
      EXPECT_EQ(SkipPlainAscii(text, at + 1), text.size());
    }
  }
  EXPECT_EQ(SkipPlainAscii("", 0), 0u);
  EXPECT_EQ(SkipPlainAscii("plain text\n\tonly", 0), 16u);
}

TEST(SkipSpaces, StopsAtTheFirstOtherByteOrAtTheEnd) {
  for (std::size_t at = 0; at < 40; ++at) {
    std::string text(40, ' ');
    text[at] = 'k';
    EXPECT_EQ(SkipSpaces(text, 0, text.size()), at);
    EXPECT_EQ(SkipSpaces(text, 0, at), at);  // the end given stops it first
    EXPECT_EQ(SkipSpaces(text, at + 1, text.size()), text.size());
  }
  EXPECT_EQ(SkipSpaces("  \tx", 0, 4), 2u);  // a tab is no space
}

TEST(FindAnyOf, FindsTheFirstMemberBeforeTheEnd) {
  constexpr ByteSet kStops(":#");
  std::string_view text = "key name: value # comment";
  EXPECT_EQ(FindAnyOf(text, 0, text.size(), kStops), 8u);
  EXPECT_EQ(FindAnyOf(text, 9, text.size(), kStops), 16u);
  EXPECT_EQ(FindAnyOf(text, 0, 8, kStops), 8u);
  EXPECT_EQ(FindAnyOf(text, 17, text.size(), kStops), text.size());
}

}  // namespace
}  // namespace rollcall
