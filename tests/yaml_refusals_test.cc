// What Kubernetes' YAML reader refuses (yaml_refusals.h). Each
// refused case was checked against k8sread (tests/oracle), Kubernetes' own decoder.
#include "rollcall/yaml_refusals.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace rollcall {
namespace {

using ::testing::HasSubstr;

constexpr const char* kRefuses = "; Kubernetes' YAML reader (go-yaml) refuses the document";

std::string Refusal(std::string_view text) {
  std::optional<YamlRefusal> refusal = FindYamlRefusal(text);
  if (!refusal) return "";
  return std::to_string(refusal->offset) + ": " + refusal->message;
}

TEST(YamlRefusals, WhatGoYamlReadsPasses) {
  for (const char* text : {
           "a: b\n",
           "",
           "# only a comment\n",
           "a: &x {b: c}\nd:\n  <<: *x\n  e: f\n",
           "a: &x {b: c}\ny: &y {g: h}\nd:\n  <<: [*x, *y, {i: j}]\n",
           "a: !!int 12\nb: !!float 1\nc: !!bool yes\nd: !!null ~\ne: !!null\n",
           "a: !!str .inf\nb: '.nan'\nc: ! 12\nd: !local x\n",
           "a: !!binary aGVsbG8=\nb: !!binary |\n  aGVs\n  bG8=\n",
           "a: !!timestamp 2001-12-14\n",
           "a: \"\\t\\N\\_\\x41\\u00e9\\\\/\"\n",
           "é: \"x\"\nb: \"\\\\/\"\n",
           "on: 1\n0123: 2\n",
           // go-yaml reads a piece's first document only.
           "a: b\n...\n: [ {\n",
       }) {
    EXPECT_EQ(Refusal(text), "") << text;
  }
}

// At the start of the line's content: libyaml's own column may lie inside a value.
TEST(YamlRefusals, WhatLibyamlRefusesInItsWords) {
  EXPECT_EQ(
      Refusal("a: !!map{b: c}\n"),
      "0: invalid YAML: did not find expected whitespace or line break" + std::string(kRefuses));
  // libyaml stops at the second ':', which says how long the value is.
  EXPECT_EQ(
      Refusal("s:\n  password: hunter2: rest\n"),
      "5: invalid YAML: mapping values are not allowed in this context" + std::string(kRefuses));
  EXPECT_EQ(Refusal("a:\n  b: c\n d: e\n"),
            "11: invalid YAML: did not find expected key" + std::string(kRefuses));
  EXPECT_EQ(Refusal("a: [b, c\n"),
            "9: invalid YAML: did not find expected ',' or ']'" + std::string(kRefuses));
}

// An escape error points into a quoted scalar, which may be a secret: placed at its
// line's start, and nothing of the value quoted.
TEST(YamlRefusals, EscapesAreRefusedAtTheLineStart) {
  const std::string line_end = " (in a quoted scalar on this line)" + std::string(kRefuses);
  EXPECT_EQ(Refusal("a: b\nc:\n  é: \"hunt\\/er2\"\n"),
            "10: invalid YAML: found unknown escape character" + line_end);
  EXPECT_EQ(Refusal("a: \"hunt\\qer2\"\n"),
            "0: invalid YAML: found unknown escape character" + line_end);
  EXPECT_EQ(Refusal("x: 1\na: \"hunt\\xZZ\"\n"),
            "5: invalid YAML: did not find expected hexdecimal number" + line_end);
  // Over lines: the line of the escape.
  EXPECT_EQ(Refusal("a: \"one\n  two \\/ three\"\n"),
            "10: invalid YAML: found unknown escape character" + line_end);
}

TEST(YamlRefusals, TagsThatDoNotFit) {
  EXPECT_EQ(Refusal("a: !!int abc\n"),
            "3: invalid YAML: a scalar tagged !!int that is not one (cannot decode it as a "
            "!!int)" +
                std::string(kRefuses));
  EXPECT_THAT(Refusal("a: !!null x\n"), HasSubstr("tagged !!null"));
  EXPECT_THAT(Refusal("a: !!bool 1\n"), HasSubstr("tagged !!bool"));
  EXPECT_THAT(Refusal("a: !!float abc\n"), HasSubstr("tagged !!float"));
  EXPECT_THAT(Refusal("a: !!timestamp abc\n"), HasSubstr("tagged !!timestamp"));
  EXPECT_EQ(Refusal("a: !!binary not-base64\n"),
            "3: invalid YAML: !!binary value contains invalid base64 data" + std::string(kRefuses));
  // Keys are decoded as values are.
  EXPECT_THAT(Refusal("!!int x: 1\n"), HasSubstr("tagged !!int"));
}

TEST(YamlRefusals, KeysJsonCannotHave) {
  const std::string null_key =
      "a mapping key that is null (~, null or nothing before the ':'); Kubernetes refuses the "
      "document (Unsupported map key of type: %!s(<nil>))";
  EXPECT_EQ(Refusal("a: b\n~: c\n"), "5: " + null_key);
  // An empty key in a block mapping is libyaml's to refuse.
  EXPECT_EQ(Refusal("a: b\n: c\n"),
            "5: invalid YAML: did not find expected key" + std::string(kRefuses));
  EXPECT_EQ(Refusal("{~: c}\n"), "1: " + null_key);
  EXPECT_EQ(Refusal("a: {null: c}\n"), "4: " + null_key);
  EXPECT_EQ(Refusal("n: &n ~\nm:\n  *n : c\n"), "13: " + null_key);
  const std::string collection_key =
      "a mapping key that is a mapping or a sequence; Kubernetes refuses the document (invalid "
      "map key)";
  EXPECT_EQ(Refusal("? [a, b]\n: c\n"), "2: " + collection_key);
  // Found by differential fuzzing: two .nan keys are two keys to go-yaml, and the
  // JSON gets the value of either, at random.
  EXPECT_EQ(Refusal("a: b\n.NaN: x\n"),
            "5: a mapping key that is .nan to YAML 1.1: Kubernetes reads one of the values of "
            "such keys, chosen at random each time; quote the key");
  EXPECT_EQ(Refusal("'.nan': x\n"), "");
  // Found by differential fuzzing: 12, 12.0 and "12" are three keys to go-yaml and
  // one to the JSON, which gets one of their values at random.
  const std::string same_key =
      "two keys of this mapping, written as different values (a number and a string, say), "
      "are the same key once Kubernetes turns them into JSON: which value it keeps changes "
      "from run to run; write the key once";
  EXPECT_EQ(Refusal("+12: a\nb: c\n12.0: d\n"), "12: " + same_key);
  EXPECT_EQ(Refusal("{12: a, '12': b}\n"), "8: " + same_key);
  EXPECT_EQ(Refusal("on: a\n'true': b\n"), "6: " + same_key);
  // Through a merge too (found by differential fuzzing).
  EXPECT_EQ(Refusal("a:\n  1e3: x\n  <<: [{1_000: a}]\n"), "28: " + same_key);
  EXPECT_EQ(Refusal("m: &m {'12': a}\na:\n  <<: *m\n  12: b\n"), "30: " + same_key);
  EXPECT_EQ(Refusal("a:\n  1000: x\n  <<: [{1_000: a}]\n"), "");
  // Two mappings of one merge: the earlier wins only over the same value (found by
  // differential fuzzing; kubectl reads "12" as x or y from run to run).
  EXPECT_EQ(Refusal("a:\n  <<: [{12.0: x}, {+12: y}]\n"), "28: " + same_key);
  EXPECT_EQ(Refusal("m: &m {'12': y}\na:\n  <<: [{12: x}, *m]\n"), "35: " + same_key);
  EXPECT_EQ(Refusal("a:\n  <<: [{12: x}, {+12: y}]\n"), "");
  // The same value twice is a duplicate key, which go-yaml resolves: the last wins.
  EXPECT_EQ(Refusal("12: a\n0xC: b\non: c\nyes: d\n"), "");
  EXPECT_EQ(Refusal("{a: b}: c\n"), "0: " + collection_key);
  EXPECT_EQ(Refusal("x: &x {a: b}\ny:\n  *x : c\n"), "18: " + collection_key);
}

TEST(YamlRefusals, MergesOfAnythingButMappings) {
  const std::string merge =
      "invalid YAML: map merge requires map or sequence of maps as the value" +
      std::string(kRefuses);
  EXPECT_EQ(Refusal("a:\n  <<: x\n"), "9: " + merge);
  EXPECT_EQ(Refusal("s: &s [1]\na:\n  <<: *s\n"), "19: " + merge);
  EXPECT_EQ(Refusal("a:\n  <<: [[b]]\n"), "10: " + merge);
  EXPECT_EQ(Refusal("v: &v x\na:\n  <<: [*v]\n"), "18: " + merge);
  // A quoted "<<" is a plain key, whatever its value.
  EXPECT_EQ(Refusal("a:\n  '<<': x\n"), "");
}

TEST(YamlRefusals, AliasesOfAnchorsNotYetDefinedOrStillOpen) {
  EXPECT_EQ(Refusal("a: *x\nb: &x c\n"),
            "3: invalid YAML: an alias of an anchor not defined before it (unknown anchor "
            "referenced)" +
                std::string(kRefuses));
  EXPECT_EQ(Refusal("a: &x\n  b: *x\n"),
            "11: invalid YAML: an alias inside the node its anchor names (anchor value contains "
            "itself)" +
                std::string(kRefuses));
  // The latest definition counts, as in go-yaml.
  EXPECT_EQ(Refusal("a: &x {b: c}\nd: &x e\nf:\n  <<: *x\n"),
            "30: invalid YAML: map merge requires map or sequence of maps as the value" +
                std::string(kRefuses));
}

TEST(YamlRefusals, FloatsJsonCannotHold) {
  for (const char* text :
       {"a: .inf\n", "a: -.Inf\n", "a: .NaN\n", "a: !!float .inf\n", "a: [1, .nan]\n"}) {
    EXPECT_THAT(Refusal(text), HasSubstr("is .inf or .nan to YAML 1.1, which JSON cannot hold"))
        << text;
  }
  EXPECT_THAT(Refusal("x: &x .inf\na: *x\n"), HasSubstr("JSON cannot hold"));
  EXPECT_THAT(Refusal("x: &x [.inf]\nb: 1\na: {c: *x}\n"), HasSubstr("JSON cannot hold"));
  // As a key it becomes the string "+Inf".
  EXPECT_EQ(Refusal(".inf: a\n"), "");
  // Found by differential fuzzing: a value a later duplicate key replaces never
  // reaches the JSON (go-yaml keeps the last).
  EXPECT_EQ(Refusal("a: .inf\nb: c\na: d\n"), "");
  EXPECT_EQ(Refusal("a: {b: [.nan]}\na: d\n"), "");
  // A merge writes over the entries before it and under those after it; of a list
  // of merged mappings the earlier win (each checked with k8sread).
  EXPECT_EQ(Refusal("a:\n  x: .inf\n  <<: {x: 1}\n"), "");
  EXPECT_EQ(Refusal("a:\n  <<: {x: .inf}\n  x: 1\n"), "");
  EXPECT_EQ(Refusal("a:\n  <<: [{x: 1}, {x: .inf}]\n"), "");
  EXPECT_THAT(Refusal("a:\n  <<: {x: .inf}\n"), HasSubstr("JSON cannot hold"));
  EXPECT_THAT(Refusal("a:\n  <<: [{x: .inf}, {x: 1}]\n"), HasSubstr("JSON cannot hold"));
  EXPECT_THAT(Refusal("b: &b [{x: 1}]\nc: &c {x: .inf}\na:\n  x: 1\n  <<: *c\n"),
              HasSubstr("JSON cannot hold"));
  EXPECT_EQ(Refusal("a: d\na: .inf\n"),
            "8: a value that is .inf or .nan to YAML 1.1, which JSON "
            "cannot hold: Kubernetes refuses the document (json: "
            "unsupported value); quote it if it is text");
}

// Found by differential fuzzing: libyaml 0.2.5 reads on past a '?' in a plain scalar
// inside a flow collection; go-yaml v2 ends the scalar there and fails.
TEST(YamlRefusals, AQuestionMarkInAPlainScalarInAFlowCollection) {
  std::string refused = "a: {key: https://example.com/a?b=c, optional: true}\n";
  EXPECT_EQ(Refusal(refused),
            std::to_string(refused.find('?')) +
                ": invalid YAML: a '?' in a plain (unquoted) value inside {…} or […] ends the "
                "value there for go-yaml, which then fails (did not find expected ',' or '}'); "
                "quote the value" +
                kRefuses);
  EXPECT_NE(Refusal("a: [x, y?z]\n"), "");
  EXPECT_NE(Refusal("a: [x,\n  y\n  ?z]\n"), "");
  // Quoted, in a block, or a key indicator of its own: go-yaml reads them.
  EXPECT_EQ(Refusal("a: {key: 'https://example.com/a?b=c'}\n"), "");
  EXPECT_EQ(Refusal("a: https://example.com/a?b=c\n"), "");
  EXPECT_EQ(Refusal("a: [? x : y]\n"), "");
  EXPECT_EQ(Refusal("a: {b: [c]}\nd: e?f\n"), "");
}

// go-yaml v2 reads "\'" as a quote (k8sread: "it's"); libyaml 0.2.5 refuses it. The
// refusal must not claim that Kubernetes refuses the document.
TEST(YamlRefusals, AnEscapedSingleQuoteIsRefusedWithoutBlamingKubernetes) {
  EXPECT_EQ(Refusal("a: b\n  # x\nc: \"it\\'s\"\n"),
            "11: invalid YAML: an escaped single quote (\\') in a double-quoted scalar on this "
            "line: Kubernetes reads it as ', but rollcall's YAML parser (libyaml 0.2.5) does not; "
            "write the ' without the backslash");
}

}  // namespace
}  // namespace rollcall
