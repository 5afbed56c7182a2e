#include "CCurl.h"
#include <dlfcn.h>
#include <pthread.h>

static struct {
    const char *unavailable;
    int (*global_init)(long flags);
    void *(*easy_init)(void);
    void (*easy_cleanup)(void *);
    int (*easy_setopt)(void *, int, ...);
    int (*easy_perform)(void *);
    int (*easy_getinfo)(void *, int, ...);
    const char *(*easy_strerror)(int);
    void *(*slist_append)(void *, const char *);
    void (*slist_free_all)(void *);
} curl;

static pthread_once_t opened = PTHREAD_ONCE_INIT;

static void open_curl(void) {
    const char *names[] = { "libcurl.so.4", "libcurl.4.dylib", "libcurl.so" };
    void *library = NULL;
    for (size_t i = 0; i < sizeof names / sizeof *names && !library; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        curl.unavailable = "libcurl (libcurl.so.4) cannot be opened; install libcurl4";
        return;
    }
    *(void **)&curl.global_init = dlsym(library, "curl_global_init");
    *(void **)&curl.easy_init = dlsym(library, "curl_easy_init");
    *(void **)&curl.easy_cleanup = dlsym(library, "curl_easy_cleanup");
    *(void **)&curl.easy_setopt = dlsym(library, "curl_easy_setopt");
    *(void **)&curl.easy_perform = dlsym(library, "curl_easy_perform");
    *(void **)&curl.easy_getinfo = dlsym(library, "curl_easy_getinfo");
    *(void **)&curl.easy_strerror = dlsym(library, "curl_easy_strerror");
    *(void **)&curl.slist_append = dlsym(library, "curl_slist_append");
    *(void **)&curl.slist_free_all = dlsym(library, "curl_slist_free_all");
    if (!curl.global_init || !curl.easy_init || !curl.easy_cleanup || !curl.easy_setopt || !curl.easy_perform
        || !curl.easy_getinfo || !curl.easy_strerror || !curl.slist_append || !curl.slist_free_all) {
        curl.unavailable = "the libcurl found lacks a function Reel calls; install libcurl4 7.85 or later";
        return;
    }
    // CURL_GLOBAL_ALL: once, before any handle (curl_easy_init would do it, but not thread-safely).
    if (curl.global_init(3) != 0) curl.unavailable = "libcurl cannot be initialised";
}

const char *reel_curl_unavailable(void) {
    pthread_once(&opened, open_curl);
    return curl.unavailable;
}

void *reel_curl_easy_init(void) { return reel_curl_unavailable() ? NULL : curl.easy_init(); }
void reel_curl_easy_cleanup(void *handle) { curl.easy_cleanup(handle); }
int reel_curl_easy_setopt_long(void *handle, ReelCurlOption option, long value) { return curl.easy_setopt(handle, option, value); }
int reel_curl_easy_setopt_pointer(void *handle, ReelCurlOption option, const void *value) { return curl.easy_setopt(handle, option, value); }
int reel_curl_easy_setopt_write(void *handle, ReelCurlOption option, ReelCurlWriteFunction function) {
    return curl.easy_setopt(handle, option, function);
}
int reel_curl_easy_setopt_transfer_info(void *handle, ReelCurlTransferInfoFunction function) {
    return curl.easy_setopt(handle, REEL_CURLOPT_XFERINFOFUNCTION, function);
}
int reel_curl_easy_setopt_open_socket(void *handle, ReelCurlOpenSocketFunction function) {
    return curl.easy_setopt(handle, REEL_CURLOPT_OPENSOCKETFUNCTION, function);
}
int reel_curl_easy_perform(void *handle) { return curl.easy_perform(handle); }

long reel_curl_easy_getinfo_long(void *handle, ReelCurlInfo info) {
    long value = 0;
    return curl.easy_getinfo(handle, info, &value) == 0 ? value : 0;
}

int64_t reel_curl_easy_getinfo_offset(void *handle, ReelCurlInfo info) {
    int64_t value = -1;
    return curl.easy_getinfo(handle, info, &value) == 0 ? value : -1;
}

const char *reel_curl_easy_getinfo_string(void *handle, ReelCurlInfo info) {
    const char *value = NULL;
    return curl.easy_getinfo(handle, info, &value) == 0 ? value : NULL;
}

const char *reel_curl_easy_strerror(int code) { return curl.easy_strerror(code); }
void *reel_curl_slist_append(void *list, const char *text) { return curl.slist_append(list, text); }
void reel_curl_slist_free_all(void *list) { curl.slist_free_all(list); }
