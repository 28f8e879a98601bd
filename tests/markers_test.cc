#include "rollcall/markers.h"

#include <gtest/gtest.h>

namespace rollcall {
namespace {

TEST(ParseMarkerValue, KnownValues) {
  EXPECT_EQ(ParseMarkerValue("pending").kind, MarkerKind::kPending);
  EXPECT_EQ(ParseMarkerValue(" checksum ").kind, MarkerKind::kChecksum);
  MarkerValue waived = ParseMarkerValue("static: rotated by hand twice a year, pods restarted");
  EXPECT_EQ(waived.kind, MarkerKind::kStatic);
  EXPECT_EQ(waived.reason, "rotated by hand twice a year, pods restarted");
  MarkerValue reloads = ParseMarkerValue("reloads:nginx -s reload on inotify");
  EXPECT_EQ(reloads.kind, MarkerKind::kReloads);
  EXPECT_EQ(reloads.reason, "nginx -s reload on inotify");
}

TEST(ParseMarkerValue, MalformedValuesSayWhy) {
  EXPECT_EQ(ParseMarkerValue("static").problem,
            "\"static\" needs a reason: SECRET-VERSION: static: <why>");
  EXPECT_EQ(ParseMarkerValue("reloads:   ").problem,
            "\"reloads\" needs a reason: SECRET-VERSION: reloads: <why>");
  EXPECT_EQ(ParseMarkerValue("pending soon").problem, "\"pending\" takes nothing after it");
  EXPECT_EQ(ParseMarkerValue("v2").problem,
            "unknown value \"v2\"; use pending, static: <reason>, reloads: <reason> or checksum");
  EXPECT_EQ(ParseMarkerValue("").problem,
            "the value is empty; use pending, static: <reason>, reloads: <reason> or checksum");
  EXPECT_EQ(ParseMarkerValue("Pending").kind, MarkerKind::kMalformed);
}

TEST(ScanMarkers, FindsCommentsOnlyAndTellsTrailingFromOwnLine) {
  std::string text =
      "env:\n"
      "# SECRET-VERSION: pending\n"
      "- name: A  # note; SECRET-VERSION: static: fixed at install\r\n"
      "- url: http://x#SECRET-VERSION: pending\n"
      "  value: \"a\" #SECRET-VERSION: checksum\n";
  LineIndex lines(text);
  std::vector<Marker> markers = ScanMarkers(text, lines, "f.yaml");
  ASSERT_EQ(markers.size(), 3u);
  EXPECT_EQ(markers[0].line, 2u);
  EXPECT_FALSE(markers[0].trailing);
  EXPECT_EQ(markers[0].where.Describe(), "f.yaml (line 2, column 1)");
  EXPECT_EQ(markers[1].line, 3u);
  EXPECT_TRUE(markers[1].trailing);
  EXPECT_EQ(markers[1].text, "static: fixed at install");
  EXPECT_EQ(markers[1].value.kind, MarkerKind::kStatic);
  EXPECT_EQ(markers[1].where.column, 12u);
  EXPECT_EQ(markers[2].line, 5u);
  EXPECT_EQ(markers[2].value.kind, MarkerKind::kChecksum);
}

// A marker is a comment: the same text inside a Secret's value, quoted or in a
// block scalar, is the value, never read (nor quoted in findings) as a marker.
TEST(ScanMarkers, TextInsideAValueIsNoMarker) {
  std::string text =
      "stringData:\n"
      "  script: |\n"
      "    echo 1 # SECRET-VERSION: pending\n"
      "\n"
      "    # SECRET-VERSION: static: hunter2\n"
      "  quoted: \"a # SECRET-VERSION: pending\n"
      "    b # SECRET-VERSION: pending\" # SECRET-VERSION: checksum\n"
      "  single: 'it''s # SECRET-VERSION: pending'\n"
      "  plain: don't # SECRET-VERSION: reloads: on SIGHUP\n"
      "# SECRET-VERSION: pending\n";
  LineIndex lines(text);
  std::vector<Marker> markers = ScanMarkers(text, lines, "f.yaml");
  ASSERT_EQ(markers.size(), 3u);
  EXPECT_EQ(markers[0].line, 7u);
  EXPECT_EQ(markers[0].value.kind, MarkerKind::kChecksum);
  EXPECT_EQ(markers[1].line, 9u);
  EXPECT_EQ(markers[1].value.kind, MarkerKind::kReloads);
  EXPECT_EQ(markers[2].line, 10u);
  EXPECT_EQ(markers[2].value.kind, MarkerKind::kPending);
}

TEST(MarkerBinds, SameLineWhenTrailingNextLineWhenAlone) {
  Marker alone;
  alone.line = 4;
  alone.trailing = false;
  Marker trailing;
  trailing.line = 4;
  trailing.trailing = true;
  EXPECT_TRUE(MarkerBinds(alone, {5, 8}));
  EXPECT_FALSE(MarkerBinds(alone, {4}));
  EXPECT_TRUE(MarkerBinds(trailing, {3, 4}));
  EXPECT_FALSE(MarkerBinds(trailing, {5}));
}

}  // namespace
}  // namespace rollcall
