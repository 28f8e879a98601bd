// Work spread over the CPUs the process may use (usable_cpus.h), for the parse of a
// stream's documents (docs/performance.md).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "rollcall/usable_cpus.h"

namespace rollcall {

// Calls work(i) once for every i in [0, n), on up to one thread per usable CPU
// (the calling one included), and returns when all calls have. Indices are
// handed out in increasing order, so a worker that skips the indices after a
// failing one never skips one before it. `work` must not throw, and calls for
// different indices must touch no shared state.
template <typename Work>
void ParallelFor(std::size_t n, const Work& work) {
  // Not a thread, nor the CPUs counted, for a stream of one document (`</dev/null`).
  std::size_t threads = n <= 1 ? n : std::min(UsableCpus(), n);
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
// order. Items are made in place, each in its slot of the result (so T must be
// default-constructible and move-assignable): one allocation per item would leave as
// many holes in the worker threads' heaps, between the records kept for the whole
// run (docs/performance.md).
template <typename T, typename Make>
std::vector<T> ParallelMap(std::size_t n, const Make& make) {
  static_assert(std::is_default_constructible_v<T> && std::is_move_assignable_v<T>,
                "ParallelMap makes each item in its slot of the result");
  std::vector<T> out(n);
  ParallelForFirstError(n, [&](std::size_t i) { out[i] = make(i); });
  return out;
}

}  // namespace rollcall
