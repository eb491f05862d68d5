// The desktop's C libraries — libnotify with GLib and GIO, and libsystemd — are the system's
// shared libraries, loaded with dlopen the first time a command needs them, so a command that
// shows no notification and talks to no service manager (--help, preview, the flows) starts
// without loading them. Swift calls nd_NAME for each C function NAME it uses.
#ifndef NUDGE_CDESKTOP_H
#define NUDGE_CDESKTOP_H

#include <libnotify/notify.h>
#include <gio/gio.h>
#include <glib-unix.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
// the daemon's wake-ups: wall-clock steps (timerfd) and time-zone file changes (inotify)
#include <sys/timerfd.h>
#include <sys/inotify.h>
// malloc_trim: a waiting reminder gives free heap back
#include <malloc.h>

/// The libraries Nudge loads on first use.
typedef enum { ND_NOTIFY = 0, ND_SYSTEMD = 1 } nd_library;

/// Loads the library (once; later calls return the first answer): NULL when it is there,
/// else why not (dlerror's text), e.g. when libnotify4 is not installed.
const char *nd_load(nd_library library);

/// The activation token the server sent with the action being invoked (Desktop Notifications
/// 1.2), to be called in the action's callback; NULL when there is none, or when this libnotify
/// (older than 0.7.10) has no notify_notification_get_activation_token.
const char *nd_activation_token(NotifyNotification *notification);

#define FUNCTION(lib, ret, name, params, args) ret nd_##name params;
#define PROCEDURE(lib, name, params, args) void nd_##name params;
#include "functions.def"
#undef FUNCTION
#undef PROCEDURE

#endif
