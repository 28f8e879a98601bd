#include "rollcall/input_bytes.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <new>
#include <utility>

// Linux 5.14; older headers lack it, older kernels answer EINVAL and the pages are
// faulted in by read(2) as before.
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

namespace rollcall {
namespace {

// What a growable buffer maps first: a file of manifests mostly fits.
constexpr std::size_t kFirstMapping = std::size_t{1} << 20;
// ReadFrom's runs grow with the input from the first to the longest: what is made
// present and left unused stays so until the end (Trim), and a small input makes
// few pages present.
constexpr std::size_t kFirstRun = std::size_t{64} << 10;
constexpr std::size_t kLongestRun = std::size_t{1} << 20;

std::size_t PageSize() {
  static const auto size = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

std::size_t RoundToPages(std::size_t n) {
  const std::size_t page = PageSize();
  return (n + page - 1) / page * page;
}

// read(2) of up to `n` bytes into `at`, retried on EINTR: 0 and the bytes read in
// `got` (0 at the end), or the errno of the read that failed.
int ReadSome(int fd, char* at, std::size_t n, std::size_t& got) {
  for (;;) {
    const ssize_t read_now = read(fd, at, n);
    if (read_now >= 0) {
      got = static_cast<std::size_t>(read_now);
      return 0;
    }
    if (errno != EINTR) return errno;
  }
}

}  // namespace

InputBytes InputBytes::Growable(std::size_t limit) {
  InputBytes bytes;
  bytes.limit_ = limit;
  return bytes;
}

InputBytes::InputBytes(InputBytes&& other) noexcept
    : text_(std::move(other.text_)),
      mapped_(std::exchange(other.mapped_, nullptr)),
      limit_(std::exchange(other.limit_, 0)),
      mapped_size_(std::exchange(other.mapped_size_, 0)),
      size_(std::exchange(other.size_, 0)),
      present_(std::exchange(other.present_, 0)) {}

InputBytes& InputBytes::operator=(InputBytes&& other) noexcept {
  InputBytes old(std::move(*this));
  text_ = std::move(other.text_);
  mapped_ = std::exchange(other.mapped_, nullptr);
  limit_ = std::exchange(other.limit_, 0);
  mapped_size_ = std::exchange(other.mapped_size_, 0);
  size_ = std::exchange(other.size_, 0);
  present_ = std::exchange(other.present_, 0);
  return *this;
}

InputBytes::~InputBytes() {
  if (mapped_ != nullptr) munmap(mapped_, mapped_size_);
}

char* InputBytes::Room(std::size_t want) {
  const std::size_t end = RoundToPages(size_ + std::min(want, room()));
  if (end > mapped_size_) {
    void* at = nullptr;
    std::size_t grown = 0;
    if (mapped_ == nullptr) {
      grown = std::max(end, RoundToPages(std::min(limit_, kFirstMapping)));
      at = mmap(nullptr, grown, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                -1, 0);
    } else {
      // Doubling: a stream of n bytes moves its pages log2(n / 1 MiB) times.
      grown = std::max(end, std::min(2 * mapped_size_, RoundToPages(limit_)));
      at = mremap(mapped_, mapped_size_, grown, MREMAP_MAYMOVE);
    }
    if (at == MAP_FAILED) throw std::bad_alloc();
    mapped_ = static_cast<char*>(at);
    mapped_size_ = grown;
  }
  if (end > present_) {
    // One call makes the run present; an error (an old kernel) leaves it to faults.
    madvise(mapped_ + present_, end - present_, MADV_POPULATE_WRITE);
    present_ = end;
  }
  return mapped_ + size_;
}

void InputBytes::Trim() {
  const std::size_t used = RoundToPages(size_);
  if (mapped_ == nullptr || present_ <= used) return;
  madvise(mapped_ + used, present_ - used, MADV_DONTNEED);
  present_ = used;
}

int InputBytes::ReadFrom(int fd) {
  // Most files of a chart, and every config, end within the first run: read on the
  // stack and kept as a string of their size, they cost no mapping of their own (a
  // page at least, and a mapping each, of which a process may have about 65,000).
  std::array<char, kFirstRun> first;
  const std::size_t want = std::min(kFirstRun, room());
  std::size_t held = 0;
  while (held < want) {
    std::size_t got = 0;
    if (int error = ReadSome(fd, first.data() + held, want - held, got)) return error;
    if (got == 0) break;
    held += got;
  }
  if (held < want || held == room()) {
    text_.assign(first.data(), held);
    return 0;
  }
  std::copy_n(first.data(), held, Room(held));
  Wrote(held);
  while (room() > 0) {
    const std::size_t run = std::min(std::clamp(size_, kFirstRun, kLongestRun), room());
    std::size_t got = 0;
    if (int error = ReadSome(fd, Room(run), run, got)) return error;
    if (got == 0) break;
    Wrote(got);
  }
  Trim();
  return 0;
}

}  // namespace rollcall
