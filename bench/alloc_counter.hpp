#pragma once
// Counts heap allocations made by the current thread, and the largest one, for
// tests/test_no_alloc.cpp, tests/test_io_mesh_fuzz.cpp and ricochet-bench: "no heap allocation
// inside Simulation::advance" and "no huge allocation for a malformed mesh" are checked, not
// assumed.
//
// Include this header in exactly ONE translation unit of an executable: it replaces the global
// operator new/delete (every form) and interposes the C allocation functions (malloc, calloc,
// realloc, memalign family), because Eigen's dynamic-size types allocate through std::malloc, not
// operator new. Everything forwards to glibc's own allocator (__libc_malloc and friends), so
// memory from any of these functions can be released by any other, as without the counter.
//
// Counting is per thread (a thread_local flag and counter), so allocations of other threads never
// leak into a measurement. Linux/glibc only; not usable together with sanitizers, which replace
// the same functions (RICOCHET_ALLOC_COUNTER_AVAILABLE is 0 then).

#include <cstddef>
#include <cstdint>
#include <new>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RICOCHET_ALLOC_COUNTER_AVAILABLE 0
#elif defined(__GLIBC__) || defined(__linux__)
#define RICOCHET_ALLOC_COUNTER_AVAILABLE 1
#else
#define RICOCHET_ALLOC_COUNTER_AVAILABLE 0
#endif

namespace ricochet::alloc_counter {

inline thread_local bool tCounting = false;
inline thread_local std::int64_t tCount = 0;
inline thread_local std::size_t tLargest = 0;

inline void note(std::size_t bytes) {
  if (!tCounting) return;
  ++tCount;
  if (bytes > tLargest) tLargest = bytes;
}

/// Counts the allocations of this thread while alive: `AllocationScope s; work(); s.count()`.
class AllocationScope {
 public:
  AllocationScope() : start_(tCount), previous_(tCounting), outerLargest_(tLargest) {
    tCounting = true;
    tLargest = 0;
  }
  ~AllocationScope() {
    tCounting = previous_;
    if (outerLargest_ > tLargest) tLargest = outerLargest_;
  }
  AllocationScope(const AllocationScope&) = delete;
  AllocationScope& operator=(const AllocationScope&) = delete;
  /// Allocations since construction (operator new of any form, malloc, calloc, realloc, memalign).
  std::int64_t count() const { return tCount - start_; }
  /// The largest of them, bytes.
  std::size_t largest() const { return tLargest; }

 private:
  std::int64_t start_;
  bool previous_;
  std::size_t outerLargest_;
};

}  // namespace ricochet::alloc_counter

#if RICOCHET_ALLOC_COUNTER_AVAILABLE

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void* p);

void* malloc(std::size_t size) noexcept {
  ricochet::alloc_counter::note(size);
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) noexcept {
  ricochet::alloc_counter::note(count * size);
  return __libc_calloc(count, size);
}
void* realloc(void* p, std::size_t size) noexcept {
  ricochet::alloc_counter::note(size);
  return __libc_realloc(p, size);
}
void* memalign(std::size_t alignment, std::size_t size) noexcept {
  ricochet::alloc_counter::note(size);
  return __libc_memalign(alignment, size);
}
void* aligned_alloc(std::size_t alignment, std::size_t size) noexcept {
  ricochet::alloc_counter::note(size);
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t size) noexcept {
  ricochet::alloc_counter::note(size);
  if (alignment < sizeof(void*) || (alignment & (alignment - 1)) != 0) return 22;  // EINVAL
  void* p = __libc_memalign(alignment, size);
  if (!p && size != 0) return 12;  // ENOMEM
  *out = p;
  return 0;
}
void free(void* p) noexcept { __libc_free(p); }
}  // extern "C"

namespace ricochet::alloc_counter::detail {
inline void* allocate(std::size_t size) {
  note(size);
  if (void* p = __libc_malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
inline void* allocateAligned(std::size_t size, std::align_val_t alignment) {
  note(size);
  const auto a = static_cast<std::size_t>(alignment);
  if (void* p = __libc_memalign(a < sizeof(void*) ? sizeof(void*) : a, size ? size : 1)) return p;
  throw std::bad_alloc();
}
}  // namespace ricochet::alloc_counter::detail

void* operator new(std::size_t n) { return ricochet::alloc_counter::detail::allocate(n); }
void* operator new[](std::size_t n) { return ricochet::alloc_counter::detail::allocate(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  ricochet::alloc_counter::note(n);
  return __libc_malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  ricochet::alloc_counter::note(n);
  return __libc_malloc(n ? n : 1);
}
void* operator new(std::size_t n, std::align_val_t a) {
  return ricochet::alloc_counter::detail::allocateAligned(n, a);
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return ricochet::alloc_counter::detail::allocateAligned(n, a);
}
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  ricochet::alloc_counter::note(n);
  const auto al = static_cast<std::size_t>(a);
  return __libc_memalign(al < sizeof(void*) ? sizeof(void*) : al, n ? n : 1);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  ricochet::alloc_counter::note(n);
  const auto al = static_cast<std::size_t>(a);
  return __libc_memalign(al < sizeof(void*) ? sizeof(void*) : al, n ? n : 1);
}
void operator delete(void* p) noexcept { __libc_free(p); }
void operator delete[](void* p) noexcept { __libc_free(p); }
void operator delete(void* p, std::size_t) noexcept { __libc_free(p); }
void operator delete[](void* p, std::size_t) noexcept { __libc_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { __libc_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { __libc_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { __libc_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { __libc_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { __libc_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { __libc_free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { __libc_free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { __libc_free(p); }

#endif  // RICOCHET_ALLOC_COUNTER_AVAILABLE
