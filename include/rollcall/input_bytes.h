// The bytes of one input stream, owned by the Stream that reads them.
//
// Some inputs arrive whole, as a std::string (`helm template`'s output, a test's
// text). Standard input, Helm's pipe to a post-renderer, arrives a read(2) at a time
// with no size to go by, and so may a file. One that ends within the first 64 KiB
// is kept as a string of its size; a larger one is read into anonymous memory that
// grows in place (mremap(2) moves the pages, never their bytes), so it is never
// copied and never held twice, and asks for no more address space than it has read
// (a process under `ulimit -v` reads as much as fits). Its pages are made present a
// run at a time (MADV_POPULATE_WRITE) before read(2) fills them, not faulted in one
// by one: on kube-prometheus-stack's 4.7 MB, a quarter of the page faults
// (docs/performance.md, "Reading standard input and files").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rollcall {

class InputBytes {
 public:
  InputBytes() = default;
  explicit InputBytes(std::string text) : text_(std::move(text)) {}
  // Empty, to be written through ReadFrom(), or Room() and Wrote(), up to `limit`
  // bytes in all. Nothing is mapped until something is written.
  static InputBytes Growable(std::size_t limit);

  InputBytes(InputBytes&& other) noexcept;
  InputBytes& operator=(InputBytes&& other) noexcept;
  InputBytes(const InputBytes&) = delete;
  InputBytes& operator=(const InputBytes&) = delete;
  ~InputBytes();

  std::string_view view() const {
    return mapped_ != nullptr ? std::string_view(mapped_, size_) : std::string_view(text_);
  }
  std::size_t size() const { return view().size(); }

  // A growable buffer: where the next bytes go, with min(`want`, room()) bytes there
  // present; it may move what was written (so take view() once writing is over).
  // Throws std::bad_alloc when the memory cannot be had.
  char* Room(std::size_t want);
  // How many more bytes may be written in all.
  std::size_t room() const { return limit_ - size(); }
  // `n` bytes were written at Room().
  void Wrote(std::size_t n) { size_ += n; }
  // Gives back the pages made present past the bytes written: called once writing
  // is over, so that the input costs its size and no more.
  void Trim();

  // Into a buffer Growable() just made: reads `fd` to its end, or until room() is 0,
  // then trims; a run at a time, its pages made present in one call, then filled by
  // read(2) (retried on EINTR). Returns 0, or the errno of a read that failed;
  // throws std::bad_alloc as Room().
  int ReadFrom(int fd);

 private:
  std::string text_;
  char* mapped_ = nullptr;       // the growable buffer, or null for text_
  std::size_t limit_ = 0;        // bytes it may grow to
  std::size_t mapped_size_ = 0;  // bytes mapped at mapped_, a whole number of pages
  std::size_t size_ = 0;         // bytes written
  std::size_t present_ = 0;      // bytes from mapped_ made present
};

}  // namespace rollcall
