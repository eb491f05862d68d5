#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
// the daemon's wake-ups: wall-clock steps (timerfd) and time-zone file changes (inotify)
#include <sys/timerfd.h>
#include <sys/inotify.h>
