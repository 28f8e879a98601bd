#include "rollcall/hashing.h"

#include <gtest/gtest.h>

namespace rollcall {
namespace {

Source MakeSource(SourceKind kind, std::string name_space, std::string name,
                  std::map<std::string, std::string> entries) {
  Source source;
  source.id = {kind, std::move(name_space), std::move(name)};
  source.entries = SourceEntries(std::move(entries));
  return source;
}

TEST(Sha256Hex, MatchesKnownVector) {
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(HmacSha256Hex, MatchesRfc4231TestCase2) {
  EXPECT_EQ(HmacSha256Hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(ConfigHash, PrefixesTheAlgorithm) {
  EXPECT_EQ(ConfigHash("abc", std::nullopt),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(ConfigHash("what do ya want for nothing?", std::string("Jefe")),
            "hmac-sha256:5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(CanonicalEncoding, IsLengthPrefixedAsDocumented) {
  Source s = MakeSource(SourceKind::kSecret, "ns", "db", {{"k", "v"}});
  std::string expected;
  auto count = [&expected](std::size_t n) {
    for (int shift = 56; shift >= 0; shift -= 8) expected.push_back(static_cast<char>(n >> shift));
  };
  auto field = [&](const std::string& f) {
    count(f.size());
    expected += f;
  };
  field("rollcall-config/v2");
  count(1);
  field("secret");
  field("db");
  count(1);
  field("k");
  expected.push_back('\x01');
  field("v");
  EXPECT_EQ(CanonicalEncoding({{&s, std::nullopt}}), expected);
}

TEST(CanonicalEncoding, SeparatesKeysFromValues) {
  // Without length prefixes "ab"+"c" and "a"+"bc" would collide.
  Source one = MakeSource(SourceKind::kConfigMap, "ns", "c", {{"ab", "c"}});
  Source two = MakeSource(SourceKind::kConfigMap, "ns", "c", {{"a", "bc"}});
  EXPECT_NE(CanonicalEncoding({{&one, std::nullopt}}), CanonicalEncoding({{&two, std::nullopt}}));
}

TEST(CanonicalEncoding, AbsentKeyDiffersFromEmptyValue) {
  Source without = MakeSource(SourceKind::kSecret, "ns", "s", {});
  Source empty = MakeSource(SourceKind::kSecret, "ns", "s", {{"k", ""}});
  std::set<std::string> keys = {"k"};
  EXPECT_NE(CanonicalEncoding({{&without, keys}}), CanonicalEncoding({{&empty, keys}}));
}

TEST(CanonicalEncoding, KindAndNameAreIncluded) {
  Source a = MakeSource(SourceKind::kSecret, "ns", "s", {{"k", "v"}});
  Source b = MakeSource(SourceKind::kConfigMap, "ns", "s", {{"k", "v"}});
  Source d = MakeSource(SourceKind::kSecret, "ns", "t", {{"k", "v"}});
  std::set<std::string> encodings;
  for (const Source* s : {&a, &b, &d}) encodings.insert(CanonicalEncoding({{s, std::nullopt}}));
  EXPECT_EQ(encodings.size(), 3u);
}

// A pod reads only sources of its own namespace, so the namespace tells nothing; left
// in, it made the hash depend on whether Helm passed rollcall the release namespace
// (`helm template -n demo` with and without --post-renderer-args=--namespace=demo).
TEST(CanonicalEncoding, TheNamespaceIsLeftOut) {
  Source here = MakeSource(SourceKind::kSecret, "default", "s", {{"k", "v"}});
  Source there = MakeSource(SourceKind::kSecret, "demo", "s", {{"k", "v"}});
  EXPECT_EQ(CanonicalEncoding({{&here, std::nullopt}}),
            CanonicalEncoding({{&there, std::nullopt}}));
}

TEST(CanonicalEncoding, SubsetReadIgnoresOtherKeys) {
  Source before = MakeSource(SourceKind::kSecret, "ns", "s", {{"k", "v"}, {"other", "1"}});
  Source after = MakeSource(SourceKind::kSecret, "ns", "s", {{"k", "v"}, {"other", "2"}});
  std::set<std::string> keys = {"k"};
  EXPECT_EQ(CanonicalEncoding({{&before, keys}}), CanonicalEncoding({{&after, keys}}));
  EXPECT_NE(CanonicalEncoding({{&before, std::nullopt}}),
            CanonicalEncoding({{&after, std::nullopt}}));
}

}  // namespace
}  // namespace rollcall
