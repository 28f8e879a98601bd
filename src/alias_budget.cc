#include "rollcall/alias_budget.h"

#include <algorithm>
#include <exception>

#include "rollcall/aliases.h"

namespace rollcall {

StreamAliasBudget::StreamAliasBudget(std::size_t nodes) : left_(nodes) {}

std::optional<std::size_t> StreamAliasBudget::WaitForTurn(std::size_t index) {
  std::unique_lock<std::mutex> lock(mutex_);
  // Documents are handed to threads in stream order (parallel.h), so each one before
  // `index` is being read, and reports without waiting for this one.
  ++waiting_;
  // Only a failure before this document stops it: one after it (refused before its
  // own turn) must not turn this document's success into the stream's error.
  changed_.wait(lock, [&] { return first_failed_ < index || reported_ == index; });
  --waiting_;
  if (first_failed_ < index) return std::nullopt;
  return left_;
}

void StreamAliasBudget::Spent(std::size_t index, std::size_t nodes) {
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Publish(index, nodes);
    wake = waiting_ > 0;
  }
  // Most documents have no alias and nobody waits for them: no wake-up to send.
  if (wake) changed_.notify_all();
}

void StreamAliasBudget::Failed(std::size_t index) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    first_failed_ = std::min(first_failed_, index);
    Publish(index, 0);
  }
  changed_.notify_all();
}

void StreamAliasBudget::Publish(std::size_t index, std::size_t nodes) {
  if (index != reported_) {
    early_.emplace(index, nodes);
    return;
  }
  left_ -= std::min(left_, nodes);
  ++reported_;
  for (auto next = early_.find(reported_); next != early_.end(); next = early_.find(reported_)) {
    left_ -= std::min(left_, next->second);
    early_.erase(next);
    ++reported_;
  }
}

AliasBudgetTurn::~AliasBudgetTurn() {
  if (budget_ == nullptr || reported_) return;
  if (std::uncaught_exceptions() > 0) {
    budget_->Failed(index_);
  } else {
    budget_->Spent(index_, 0);
  }
}

std::size_t AliasBudgetTurn::Left() const {
  if (budget_ == nullptr) return kMaxAliasExpansion;
  if (reported_) return 0;
  if (!left_) {
    left_ = budget_->WaitForTurn(index_);
    if (!left_) throw EarlierDocumentFailed{};
  }
  return *left_;
}

void AliasBudgetTurn::Spend(std::size_t nodes) {
  if (budget_ == nullptr || reported_) return;
  reported_ = true;
  budget_->Spent(index_, nodes);
}

}  // namespace rollcall
