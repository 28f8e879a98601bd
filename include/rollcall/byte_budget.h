// A count of bytes that threads share out: each takes some before its work and
// gives them back after, waiting while the rest are out. ParseStream bounds with
// one the text of the documents whose trees are alive at once (docs/performance.md,
// "Threads and shared state"): a tree takes 10 to 40 times its text, and a stream of
// a few large documents parsed one per CPU held a tree on each.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace rollcall {

class ByteBudget {
 public:
  explicit ByteBudget(std::size_t capacity) : capacity_(capacity) {}
  ByteBudget(const ByteBudget&) = delete;
  ByteBudget& operator=(const ByteBudget&) = delete;

  // Bytes taken, given back when it goes.
  class Share {
   public:
    Share(const Share&) = delete;
    Share& operator=(const Share&) = delete;
    ~Share();

   private:
    friend class ByteBudget;
    Share(ByteBudget& budget, std::size_t bytes) : budget_(budget), bytes_(bytes) {}
    ByteBudget& budget_;
    std::size_t bytes_;
  };

  // Waits until `bytes` fit beside what is out, and takes them. More than the
  // capacity are taken when nothing else is out: a share never waits for ever.
  Share Take(std::size_t bytes);

 private:
  void Give(std::size_t bytes);

  const std::size_t capacity_;
  std::mutex mutex_;
  std::condition_variable freed_;
  std::size_t out_ = 0;
};

}  // namespace rollcall
