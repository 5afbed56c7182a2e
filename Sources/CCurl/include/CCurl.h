#ifndef REEL_CCURL_H
#define REEL_CCURL_H

// The few libcurl calls Reel's HTTP downloads (module RemoteMedia), webhook deliveries (module
// Webhooks) and the check of the addresses they connect to (module NetworkPolicy) make, through
// plain non-variadic functions Swift can call. libcurl is opened at run time (libcurl.so.4, the
// library FoundationNetworking uses too), so building needs no libcurl headers.
// The numbers are libcurl's own (curl/curl.h), stable across its versions.

#include <stdint.h>
#include <stddef.h>
#include <sys/socket.h>

typedef enum {
    REEL_CURLOPT_WRITEDATA = 10001,
    REEL_CURLOPT_URL = 10002,
    REEL_CURLOPT_PROXY = 10004,
    REEL_CURLOPT_ERRORBUFFER = 10010,
    REEL_CURLOPT_WRITEFUNCTION = 20011,
    REEL_CURLOPT_HTTPHEADER = 10023,
    REEL_CURLOPT_HEADERDATA = 10029,
    REEL_CURLOPT_NOPROGRESS = 43,
    REEL_CURLOPT_FOLLOWLOCATION = 52,
    REEL_CURLOPT_XFERINFODATA = 10057,
    REEL_CURLOPT_POSTFIELDSIZE = 60,
    REEL_CURLOPT_MAXREDIRS = 68,
    REEL_CURLOPT_HEADERFUNCTION = 20079,
    REEL_CURLOPT_NOSIGNAL = 99,
    REEL_CURLOPT_ACCEPT_ENCODING = 10102,
    REEL_CURLOPT_TIMEOUT_MS = 155,
    REEL_CURLOPT_CONNECTTIMEOUT_MS = 156,
    REEL_CURLOPT_OPENSOCKETFUNCTION = 20163,
    REEL_CURLOPT_OPENSOCKETDATA = 10164,
    REEL_CURLOPT_COPYPOSTFIELDS = 10165,
    REEL_CURLOPT_XFERINFOFUNCTION = 20219,
    REEL_CURLOPT_PROTOCOLS_STR = 10318,
    REEL_CURLOPT_REDIR_PROTOCOLS_STR = 10319,
} ReelCurlOption;

typedef enum {
    REEL_CURLINFO_RESPONSE_CODE = 0x200000 + 2,
    REEL_CURLINFO_CONTENT_TYPE = 0x100000 + 18,
    REEL_CURLINFO_CONTENT_LENGTH_DOWNLOAD_T = 0x600000 + 15,
} ReelCurlInfo;

typedef enum {
    REEL_CURLE_OK = 0,
    REEL_CURLE_UNSUPPORTED_PROTOCOL = 1,
    REEL_CURLE_URL_MALFORMAT = 3,
    REEL_CURLE_COULDNT_CONNECT = 7,
    REEL_CURLE_PARTIAL_FILE = 18,
    REEL_CURLE_WRITE_ERROR = 23,
    REEL_CURLE_OPERATION_TIMEDOUT = 28,
    REEL_CURLE_ABORTED_BY_CALLBACK = 42,
    REEL_CURLE_TOO_MANY_REDIRECTS = 47,
} ReelCurlCode;

/// The size of the buffer `REEL_CURLOPT_ERRORBUFFER` takes.
#define REEL_CURL_ERROR_SIZE 256

/// What libcurl passes to `REEL_CURLOPT_OPENSOCKETFUNCTION` (its `struct curl_sockaddr`): the
/// address it is about to connect to, `addrlen` bytes from `addr` (a `sockaddr_in6` is longer
/// than `struct sockaddr`; libcurl's storage holds it whole).
typedef struct {
    int family;
    int socktype;
    int protocol;
    unsigned int addrlen;
    struct sockaddr addr;
} ReelCurlSockaddr;

/// libcurl's "no socket": returned by an open-socket function, the address is not connected to.
#define REEL_CURL_SOCKET_BAD (-1)

typedef size_t (*ReelCurlWriteFunction)(char *data, size_t size, size_t count, void *context);
typedef int (*ReelCurlTransferInfoFunction)(void *context, int64_t downloadTotal, int64_t downloaded, int64_t uploadTotal, int64_t uploaded);
/// Called instead of socket(2) for each address curl tries (`purpose` 0: an IP connection).
typedef int (*ReelCurlOpenSocketFunction)(void *context, int purpose, ReelCurlSockaddr *address);

/// NULL when libcurl is there, else why it cannot be used.
const char *reel_curl_unavailable(void);
void *reel_curl_easy_init(void);
void reel_curl_easy_cleanup(void *handle);
int reel_curl_easy_setopt_long(void *handle, ReelCurlOption option, long value);
int reel_curl_easy_setopt_pointer(void *handle, ReelCurlOption option, const void *value);
int reel_curl_easy_setopt_write(void *handle, ReelCurlOption option, ReelCurlWriteFunction function);
int reel_curl_easy_setopt_transfer_info(void *handle, ReelCurlTransferInfoFunction function);
int reel_curl_easy_setopt_open_socket(void *handle, ReelCurlOpenSocketFunction function);
int reel_curl_easy_perform(void *handle);
long reel_curl_easy_getinfo_long(void *handle, ReelCurlInfo info);
int64_t reel_curl_easy_getinfo_offset(void *handle, ReelCurlInfo info);
/// NULL when there is none; owned by the handle.
const char *reel_curl_easy_getinfo_string(void *handle, ReelCurlInfo info);
const char *reel_curl_easy_strerror(int code);
void *reel_curl_slist_append(void *list, const char *text);
void reel_curl_slist_free_all(void *list);

#endif
