#include "CDesktop.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const sonames[] = {"libnotify.so.4", "libsystemd.so.0"};
static void *handles[2];
static const char *errors[2];
static pthread_once_t once[2] = {PTHREAD_ONCE_INIT, PTHREAD_ONCE_INIT};

static void load(nd_library library) {
  // RTLD_GLOBAL: GLib's own plug-ins (GIO modules) resolve against what is loaded here
  handles[library] = dlopen(sonames[library], RTLD_NOW | RTLD_GLOBAL);
  // a copy: dlerror's buffer is reused by the next dl call of the thread
  if (!handles[library]) errors[library] = strdup(dlerror());
}

static void load_notify(void) { load(ND_NOTIFY); }
static void load_systemd(void) { load(ND_SYSTEMD); }

const char *nd_load(nd_library library) {
  pthread_once(&once[library], library == ND_NOTIFY ? load_notify : load_systemd);
  return errors[library];
}

/// The address of `name` in the library (and the libraries it depends on), which must have
/// been loaded: a caller that skipped nd_load, or a library without the function, is a bug.
static void *symbol(nd_library library, const char *name) {
  if (nd_load(library) != NULL || handles[library] == NULL) {
    fprintf(stderr, "nudge: %s is not loaded (%s)\n", sonames[library], nd_load(library));
    abort();
  }
  void *address = dlsym(handles[library], name);
  if (!address) {
    fprintf(stderr, "nudge: %s has no %s\n", sonames[library], name);
    abort();
  }
  return address;
}

typedef const char *(*token_getter)(NotifyNotification *);
static token_getter activation_token_getter;
static pthread_once_t activation_token_once = PTHREAD_ONCE_INIT;

/// Looks up notify_notification_get_activation_token, which libnotify has since 0.7.10 only.
static void look_up_activation_token(void) {
  if (handles[ND_NOTIFY])
    activation_token_getter =
        (token_getter)dlsym(handles[ND_NOTIFY], "notify_notification_get_activation_token");
}

const char *nd_activation_token(NotifyNotification *notification) {
  if (nd_load(ND_NOTIFY) != NULL) return NULL;
  pthread_once(&activation_token_once, look_up_activation_token);
  return activation_token_getter ? activation_token_getter(notification) : NULL;
}

#define NOTIFY ND_NOTIFY
#define SYSTEMD ND_SYSTEMD

#define RESOLVE(lib, name)                                                 \
  static __typeof__(name) *real;                                           \
  __typeof__(name) *fn = __atomic_load_n(&real, __ATOMIC_ACQUIRE);         \
  if (!fn) {                                                               \
    fn = (__typeof__(name) *)symbol(lib, #name);                           \
    __atomic_store_n(&real, fn, __ATOMIC_RELEASE);                         \
  }

#define FUNCTION(lib, ret, name, params, args) \
  ret nd_##name params {                       \
    RESOLVE(lib, name)                         \
    return fn args;                            \
  }
#define PROCEDURE(lib, name, params, args) \
  void nd_##name params {                  \
    RESOLVE(lib, name)                     \
    fn args;                               \
  }
#include "functions.def"
