#include "CSQLite.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// clang says whether a sanitizer is on through __has_feature, GCC through a macro; the
// address and thread sanitizers both refuse RTLD_DEEPBIND
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define NUDGE_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NUDGE_SANITIZED 1
#endif
#ifndef NUDGE_SANITIZED
#define NUDGE_SANITIZED 0
#endif

static const char soname[] = "libsqlite3.so.0";
static const char *error;
static pthread_once_t once = PTHREAD_ONCE_INIT;

// each function's address, set once by load() before nd_sqlite_load returns
#define FUNCTION(ret, name, params, args) static __typeof__(name) *real_##name;
#include "functions.def"
#undef FUNCTION

static void load(void) {
  // RTLD_DEEPBIND: SQLite's symbols are looked up in its own scope (itself, then libc) before
  // the global one. Debian links it with BIND_NOW and it calls its own exported functions
  // through the PLT: each of its 1,709 symbols was looked up in nudge, libm and libc before
  // SQLite itself, at every start (the today view: 5.37 -> 4.95 M instructions, BENCHMARKS.md).
  // Nudge defines none of SQLite's or libc's symbols, so it binds them to the same functions.
  // What it changes: a library preloaded with LD_PRELOAD (another malloc, a counting one) is
  // not used by SQLite's own calls, which go to libc's; Nudge never frees SQLite's memory with
  // free() (only sqlite3_free), so the two allocators never meet. The address and thread
  // sanitizers refuse DEEPBIND, and musl has no such flag: those builds load SQLite the plain
  // way.
#if defined(RTLD_DEEPBIND) && !NUDGE_SANITIZED
  int flags = RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND;
#else
  int flags = RTLD_NOW | RTLD_LOCAL;
#endif
  void *handle = dlopen(soname, flags);
  if (!handle) {
    // a copy: dlerror's buffer is reused by the next dl call of the thread
    error = strdup(dlerror());
    return;
  }
#define FUNCTION(ret, name, params, args)                                   \
  real_##name = (__typeof__(name) *)dlsym(handle, #name);                   \
  if (!real_##name) {                                                       \
    static char missing[128];                                               \
    snprintf(missing, sizeof missing, "%s has no %s", soname, #name);       \
    error = missing;                                                        \
    return;                                                                 \
  }
#include "functions.def"
#undef FUNCTION
}

const char *nd_sqlite_load(void) {
  pthread_once(&once, load);
  return error;
}

// A call before a successful nd_sqlite_load is a bug: it stops here, naming the function.
#define FUNCTION(ret, name, params, args)                                              \
  ret nd_##name params {                                                               \
    if (__builtin_expect(real_##name == NULL, 0)) {                                    \
      fprintf(stderr, "nudge: %s called before %s was loaded\n", #name, soname);     \
      abort();                                                                         \
    }                                                                                  \
    return real_##name args;                                                           \
  }
#include "functions.def"
#undef FUNCTION
