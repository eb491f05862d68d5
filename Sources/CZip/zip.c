#include "CZip.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static const char soname[] = "libz.so.1";
static const char *error;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static __typeof__(inflateInit2_) *real_inflateInit2_;
static __typeof__(inflate) *real_inflate;
static __typeof__(inflateEnd) *real_inflateEnd;
static __typeof__(crc32) *real_crc32;

static void load(void) {
  void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    error = strdup(dlerror());
    return;
  }
  real_inflateInit2_ = (__typeof__(inflateInit2_) *)dlsym(handle, "inflateInit2_");
  real_inflate = (__typeof__(inflate) *)dlsym(handle, "inflate");
  real_inflateEnd = (__typeof__(inflateEnd) *)dlsym(handle, "inflateEnd");
  real_crc32 = (__typeof__(crc32) *)dlsym(handle, "crc32");
  if (!real_inflateInit2_ || !real_inflate || !real_inflateEnd || !real_crc32)
    error = "libz.so.1 lacks inflate or crc32";
}

const char *nd_zlib_load(void) {
  pthread_once(&once, load);
  return error;
}

struct nd_inflater {
  z_stream z;
};

nd_inflater *nd_inflater_new(void) {
  if (nd_zlib_load()) return NULL;
  nd_inflater *stream = calloc(1, sizeof *stream);
  if (!stream) return NULL;
  // -15: raw deflate, no zlib header, the largest window
  if (real_inflateInit2_(&stream->z, -15, ZLIB_VERSION, (int)sizeof(z_stream)) != Z_OK) {
    free(stream);
    return NULL;
  }
  return stream;
}

int nd_inflate(nd_inflater *stream, const uint8_t *input, size_t input_count, size_t *used,
               uint8_t *output, size_t output_count, size_t *produced) {
  // zlib counts in uInt: at most 1 GiB a call
  if (input_count > (1u << 30)) input_count = 1u << 30;
  if (output_count > (1u << 30)) output_count = 1u << 30;
  stream->z.next_in = (Bytef *)input;
  stream->z.avail_in = (uInt)input_count;
  stream->z.next_out = output;
  stream->z.avail_out = (uInt)output_count;
  int status = real_inflate(&stream->z, Z_NO_FLUSH);
  *used = input_count - stream->z.avail_in;
  *produced = output_count - stream->z.avail_out;
  if (status == Z_STREAM_END) return 1;
  if (status == Z_OK || status == Z_BUF_ERROR) return 0;
  return -1;
}

void nd_inflater_free(nd_inflater *stream) {
  if (!stream) return;
  real_inflateEnd(&stream->z);
  free(stream);
}

uint32_t nd_crc32(uint32_t crc, const uint8_t *bytes, size_t count) {
  if (nd_zlib_load()) return 0;
  while (count > 0) {
    uInt part = count > (1u << 30) ? (1u << 30) : (uInt)count;
    crc = (uint32_t)real_crc32(crc, bytes, part);
    bytes += part;
    count -= part;
  }
  return crc;
}
