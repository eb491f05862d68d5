// zlib (libz.so.1), loaded with dlopen the first time a zip is read, so a command that reads
// none starts without it; compiled against its header (zlib1g-dev), never linked.
// Only raw deflate is inflated: the streams inside a zip archive.
#ifndef NUDGE_CZIP_H
#define NUDGE_CZIP_H

#include <stddef.h>
#include <stdint.h>

/// Loads libz.so.1 and looks up what nd_inflate needs (once; later calls return the first
/// answer): NULL when that worked, else why not.
const char *nd_zlib_load(void);

/// One raw-deflate stream being inflated.
typedef struct nd_inflater nd_inflater;

/// A new stream; NULL when memory or zlib failed (call nd_zlib_load first).
nd_inflater *nd_inflater_new(void);

/// Inflates from `input` into `output`: sets how many bytes of each were used. Returns 0 when
/// more can follow, 1 at the stream's end, -1 for data that is not deflate.
int nd_inflate(nd_inflater *stream, const uint8_t *input, size_t input_count, size_t *used,
               uint8_t *output, size_t output_count, size_t *produced);

void nd_inflater_free(nd_inflater *stream);

/// The CRC-32 of `count` bytes, continuing `crc` (0 to start).
uint32_t nd_crc32(uint32_t crc, const uint8_t *bytes, size_t count);

#endif
