// Work spread over the machine's hardware threads, for the parse of a stream's
// documents (docs/performance.md).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

namespace rollcall {

// Calls work(i) once for every i in [0, n), on up to one thread per hardware
// thread (the calling one included), and returns when all calls have. Indices are
// handed out in increasing order, so a worker that skips the indices after a
// failing one never skips one before it. `work` must not throw, and calls for
// different indices must touch no shared state.
template <typename Work>
void ParallelFor(std::size_t n, const Work& work) {
  std::size_t threads = std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), n);
  if (threads <= 1) {
    for (std::size_t i = 0; i < n; ++i) work(i);
    return;
  }
  std::atomic<std::size_t> next{0};
  auto drain = [&] {
    for (std::size_t i = next++; i < n; i = next++) work(i);
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(drain);
  drain();
  for (std::thread& thread : pool) thread.join();
}

// Calls work(i) as ParallelFor does, for calls that may throw: when some do, the
// exception of the lowest index is rethrown whatever the threads' timing (calls
// after it may be skipped), so errors are deterministic.
template <typename Work>
void ParallelForFirstError(std::size_t n, const Work& work) {
  // Only the error of the lowest index is kept (not a slot per index: a stream of a
  // million documents would pay 8 MB for errors it almost never has).
  std::mutex mutex;
  std::size_t error_index = n;
  std::exception_ptr error;
  std::atomic<std::size_t> first_error{n};
  ParallelFor(n, [&](std::size_t i) {
    if (i > first_error.load()) return;
    try {
      work(i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (i < error_index) {
        error_index = i;
        error = std::current_exception();
        first_error.store(i);
      }
    }
  });
  if (error) std::rethrow_exception(error);
}

// make(i) for every i in [0, n), computed as ParallelForFirstError does, in index
// order. Items are made in place: in the result when T can be assigned, else in one
// block freed whole once they have moved on. One allocation per item would leave as
// many holes in the worker threads' heaps, between the records kept for the whole
// run (docs/performance.md).
template <typename T, typename Make>
std::vector<T> ParallelMap(std::size_t n, const Make& make) {
  if constexpr (std::is_default_constructible_v<T> && std::is_move_assignable_v<T>) {
    std::vector<T> out(n);
    ParallelForFirstError(n, [&](std::size_t i) { out[i] = make(i); });
    return out;
  } else {
    std::vector<std::optional<T>> made(n);
    ParallelForFirstError(n, [&](std::size_t i) { made[i].emplace(make(i)); });
    std::vector<T> out;
    out.reserve(n);
    for (std::optional<T>& item : made) out.push_back(std::move(*item));
    return out;
  }
}

}  // namespace rollcall
