// What rollcall asks of the C library's allocator: handing freed memory back to
// the system. A large stream's peak RSS is set as much by what the allocator keeps
// as by what rollcall holds (docs/performance.md, "Where the memory goes").
#pragma once

namespace rollcall {

// Hands the pages of freed memory back to the system (glibc's malloc_trim, on
// every arena): what one thread's tree freed stays resident otherwise, beside the
// next document's tree on another thread or an output string built next.
// Elsewhere nothing.
void ReturnFreedMemory();

}  // namespace rollcall
