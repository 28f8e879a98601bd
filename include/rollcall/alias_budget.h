// The alias expansions of a whole stream, bounded in stream order.
//
// go-yaml bounds each document on its own, so twenty documents that each stay just
// under its rule yield twenty times the nodes: 870 KB of them made 600,000
// references and a 3.5 GB SARIF report. rollcall bounds the stream: its documents'
// aliases together may expand to kMaxAliasExpansion nodes past their text
// (aliases.h). The documents are parsed on several threads, so that which one is
// refused does not depend on their timing, a document with aliases waits until
// every document before it has said how far its own aliases expanded.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <map>
#include <mutex>
#include <optional>

namespace rollcall {

class StreamAliasBudget {
 public:
  explicit StreamAliasBudget(std::size_t nodes);

  // What document `index` (0-based, in stream order, counting only the documents
  // that take turns) may expand, once every document before it has reported;
  // nullopt when one of them failed (the error reported is then that one's, and
  // this document need not be read).
  std::optional<std::size_t> WaitForTurn(std::size_t index);
  // Document `index` expanded `nodes` (0: it has no alias, or was not parsed).
  void Spent(std::size_t index, std::size_t nodes);
  // Document `index` failed: every document after it that waits stops; those before
  // it go on (their own errors come first).
  void Failed(std::size_t index);

 private:
  void Publish(std::size_t index, std::size_t nodes);  // with mutex_ held

  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t left_;
  std::size_t reported_ = 0;                  // documents before this one have all reported
  std::map<std::size_t, std::size_t> early_;  // reported past reported_: index → nodes
  std::size_t first_failed_ = static_cast<std::size_t>(-1);  // the lowest that failed
  std::size_t waiting_ = 0;                                  // threads in WaitForTurn
};

// Thrown by a document that stops because one before it failed: never reported,
// since the error of the lowest index is (parallel.h).
struct EarlierDocumentFailed {};

// Document `index`'s turn at a stream's budget (none: a document read on its own,
// or one without aliases, which has the whole of kMaxAliasExpansion). Reports to the budget exactly
// once: what Spend says; else, when it goes out of scope, 0 (nothing was expanded) or, during an
// exception, that the document failed.
class AliasBudgetTurn {
 public:
  AliasBudgetTurn(StreamAliasBudget* budget, std::size_t index) : budget_(budget), index_(index) {}
  AliasBudgetTurn(const AliasBudgetTurn&) = delete;
  AliasBudgetTurn& operator=(const AliasBudgetTurn&) = delete;
  ~AliasBudgetTurn();

  // The nodes this document's aliases may expand to, once the documents before it
  // have reported (0 once this one has); throws EarlierDocumentFailed when one of
  // them failed.
  std::size_t Left() const;
  void Spend(std::size_t nodes);

 private:
  StreamAliasBudget* budget_;
  std::size_t index_;
  bool reported_ = false;
  mutable std::optional<std::size_t> left_;  // once waited for
};

}  // namespace rollcall
