// roll --apply reads back what it applied before it patches anything: a source the
// cluster does not hold as planned stops the roll, naming the keys, never a value.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rollcall/input_error.h"
#include "rollcall/roll/confirm.h"

namespace rollcall::roll {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Source SecretOf(const std::string& name, const std::map<std::string, std::string>& entries) {
  Source source;
  source.id = {SourceKind::kSecret, Name("shop"), Name(name)};
  source.entries = SourceEntries(entries);
  return source;
}

// A lookup answering with `held`, recording what it was asked for.
SourceLookup Holding(std::vector<Source> held, std::vector<SourceId>* asked) {
  return [held = std::move(held), asked](const std::vector<SourceId>& wanted) {
    *asked = wanted;
    return LookupResult{held, {}};
  };
}

// Every source of `planned` read whole (an envFrom), unless `read` says otherwise.
KeysRead ReadWhole(const std::vector<Source>& planned) {
  KeysRead read;
  for (const Source& source : planned) read[source.id] = std::nullopt;
  return read;
}

// The message ConfirmApplied throws, or "" when it confirms.
std::string Refusal(const std::vector<Source>& planned, std::vector<Source> held,
                    std::vector<SourceId>* asked = nullptr,
                    const std::optional<KeysRead>& read = std::nullopt) {
  std::vector<SourceId> ignored;
  try {
    ConfirmApplied(planned, read ? *read : ReadWhole(planned),
                   Holding(std::move(held), asked ? asked : &ignored));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ConfirmApplied, TheContentPlannedWithIsConfirmed) {
  std::vector<SourceId> asked;
  EXPECT_EQ(Refusal({SecretOf("db", {{"password", "new"}}), SecretOf("cache", {})},
                    {SecretOf("cache", {}), SecretOf("db", {{"password", "new"}})}, &asked),
            "");
  // Each source once, sorted, as the lookup wants them.
  ASSERT_EQ(asked.size(), 2U);
  EXPECT_EQ(asked[0].name, "cache");
  EXPECT_EQ(asked[1].name, "db");
}

TEST(ConfirmApplied, AKeyWithOtherBytesIsNamedAndItsValueNot) {
  std::string message = Refusal({SecretOf("db", {{"password", "planned-value"}})},
                                {SecretOf("db", {{"password", "held-value"}})});
  EXPECT_EQ(message,
            "after kubectl apply, the cluster holds Secret shop/db with other content than roll "
            "planned with (1 key its readers read differs: password): nothing was patched, since "
            "the hash roll "
            "planned would not be the content its readers get. kubectl keeps keys it did not "
            "set, and a webhook, a controller or another writer may have changed it; run "
            "`rollcall roll secret/shop/db` to roll from what the cluster holds");
  EXPECT_THAT(message, Not(HasSubstr("planned-value")));
  EXPECT_THAT(message, Not(HasSubstr("held-value")));
}

TEST(ConfirmApplied, AKeyKubectlKeptDiffersOnlyToAReaderOfIt) {
  // kubectl apply keeps a key that an earlier writer set and the manifest does not name:
  // an envFrom reads it, a secretKeyRef to password does not.
  const std::vector<Source> planned = {SecretOf("db", {{"password", "p"}})};
  const std::vector<Source> held = {SecretOf("db", {{"password", "p"}, {"token", "t"}})};
  EXPECT_THAT(Refusal(planned, held), HasSubstr("(1 key its readers read differs: token)"));
  KeysRead password;
  password[planned[0].id] = std::set<std::string>{"password"};
  EXPECT_EQ(Refusal(planned, held, nullptr, password), "");
}

TEST(ConfirmApplied, ASourceNoWorkloadReadsIsNotLookedUp) {
  std::vector<SourceId> asked;
  const std::vector<Source> planned = {SecretOf("read", {{"k", "1"}}),
                                       SecretOf("unread", {{"k", "1"}})};
  KeysRead read;
  read[planned[0].id] = std::nullopt;
  EXPECT_EQ(Refusal(planned, {SecretOf("read", {{"k", "1"}})}, &asked, read), "");
  ASSERT_EQ(asked.size(), 1U);
  EXPECT_EQ(asked[0].name, "read");
}

TEST(ConfirmApplied, AnAbsentSourceIsNamedWithTheOthersCounted) {
  std::string message = Refusal(
      {SecretOf("a", {{"k", "1"}}), SecretOf("b", {{"k", "1"}}), SecretOf("c", {{"k", "1"}})},
      {SecretOf("c", {{"k", "2"}})});
  EXPECT_THAT(message, HasSubstr("after kubectl apply, the cluster holds no Secret shop/a "
                                 "(and 2 more sources so): nothing was patched"));
}

TEST(ConfirmApplied, ManyKeysAreCutAfterFive) {
  std::map<std::string, std::string> planned;
  for (char key = 'a'; key <= 'h'; ++key) planned[std::string(1, key)] = "x";
  EXPECT_THAT(Refusal({SecretOf("db", planned)}, {SecretOf("db", {})}),
              HasSubstr("(8 keys its readers read differ: a, b, c, d, e, and 3 more)"));
}

TEST(ConfirmApplied, TheLastDefinitionOfASourceIsTheOneApplied) {
  // kubectl applies a manifest's objects in order: the second db is what it holds.
  EXPECT_EQ(Refusal({SecretOf("db", {{"k", "first"}}), SecretOf("db", {{"k", "second"}})},
                    {SecretOf("db", {{"k", "second"}})}),
            "");
  EXPECT_THAT(Refusal({SecretOf("db", {{"k", "first"}}), SecretOf("db", {{"k", "second"}})},
                      {SecretOf("db", {{"k", "first"}})}),
              HasSubstr("(1 key its readers read differs: k)"));
}

}  // namespace
}  // namespace rollcall::roll
