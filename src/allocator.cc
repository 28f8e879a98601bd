#include "rollcall/allocator.h"

#include <cstdlib>  // defines __GLIBC__ on glibc, before the test below

#if defined(__GLIBC__)
#include <malloc.h>
#elif defined(__gnu_linux__)
// The compiler targets glibc but no header has told: the trim would compile to
// nothing, silently.
#error "__GLIBC__ is not defined: include a C library header first"
#endif

namespace rollcall {

void ReturnFreedMemory() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace rollcall
