// The system's SQLite (libsqlite3.so.0), loaded with dlopen the first time a database is
// opened, so a command that opens none (--help, schedule preview) starts without loading it:
// the library binds its ~1,600 symbols at load (BIND_NOW), a quarter of such a start.
// Swift calls nd_NAME for each SQLite function NAME it uses; sqlite3.h gives the types and
// constants (a call to NAME itself would not link: the library is not linked).
#ifndef NUDGE_CSQLITE_H
#define NUDGE_CSQLITE_H

#include <sqlite3.h>

/// Loads libsqlite3.so.0 and looks up every function below (once; later calls return the
/// first answer): NULL when that worked, else why not (dlerror's text).
const char *nd_sqlite_load(void);

#define FUNCTION(ret, name, params, args) ret nd_##name params;
#include "functions.def"
#undef FUNCTION

#endif
