#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
