#include <libnotify/notify.h>
#include <gio/gio.h>
#include <glib-unix.h>
