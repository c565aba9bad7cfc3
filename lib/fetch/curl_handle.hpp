// RAII owners for libcurl handles. Thread safety: a handle belongs to one
// thread at a time (libcurl's rule); curl_multi_wakeup may be called from any.
#pragma once

#include <curl/curl.h>
#include <stdexcept>
#include <utility>

namespace frontier {

// Calls curl_global_init once per process (thread-safe, idempotent).
void curl_global_once();

// Owns a CURL* easy handle. Throws std::runtime_error when libcurl cannot
// allocate one.
class CurlEasy {
public:
    CurlEasy() : h_(curl_easy_init()) {
        if (!h_) throw std::runtime_error("curl_easy_init failed");
    }
    ~CurlEasy() {
        if (h_) curl_easy_cleanup(h_);
    }
    CurlEasy(CurlEasy&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
    CurlEasy& operator=(CurlEasy&& o) noexcept {
        std::swap(h_, o.h_);
        return *this;
    }
    CurlEasy(const CurlEasy&) = delete;
    CurlEasy& operator=(const CurlEasy&) = delete;
    CURL* get() const { return h_; }

private:
    CURL* h_;
};

// Owns a CURLM* multi handle. Remove every easy handle before destruction.
class CurlMulti {
public:
    CurlMulti() : h_(curl_multi_init()) {
        if (!h_) throw std::runtime_error("curl_multi_init failed");
    }
    ~CurlMulti() {
        if (h_) curl_multi_cleanup(h_);
    }
    CurlMulti(const CurlMulti&) = delete;
    CurlMulti& operator=(const CurlMulti&) = delete;
    CURLM* get() const { return h_; }

private:
    CURLM* h_;
};

// Owns a CURLSH* share handle (cookies shared by every transfer of a fetch).
// Clean up every easy handle using it first.
class CurlShare {
public:
    CurlShare() : h_(curl_share_init()) {
        if (!h_) throw std::runtime_error("curl_share_init failed");
    }
    ~CurlShare() {
        if (h_) curl_share_cleanup(h_);
    }
    CurlShare(const CurlShare&) = delete;
    CurlShare& operator=(const CurlShare&) = delete;
    CURLSH* get() const { return h_; }

private:
    CURLSH* h_;
};

// Owns a curl_slist (request header list).
class CurlSlist {
public:
    CurlSlist() = default;
    ~CurlSlist() { reset(); }
    CurlSlist(const CurlSlist&) = delete;
    CurlSlist& operator=(const CurlSlist&) = delete;
    // Appends a "Name: value" line. Throws std::runtime_error on allocation failure.
    void append(const char* line) {
        curl_slist* n = curl_slist_append(l_, line);
        if (!n) throw std::runtime_error("curl_slist_append failed");
        l_ = n;
    }
    void reset() {
        if (l_) curl_slist_free_all(l_);
        l_ = nullptr;
    }
    curl_slist* get() const { return l_; }

private:
    curl_slist* l_ = nullptr;
};

}  // namespace frontier
