#include "core/ondemand.hpp"

#include <dlfcn.h>

#include <initializer_list>
#include <string>

#include "core/error.hpp"

namespace frontier {

namespace {

// The first of `sonames` that opens; the runtime soname first, then the
// development symlink.
void* open_library(std::initializer_list<const char*> sonames, const char* package) {
    std::string why;
    for (const char* name : sonames) {
        if (void* h = dlopen(name, RTLD_NOW | RTLD_LOCAL)) return h;
        const char* e = dlerror();
        if (why.empty() && e) why = e;
    }
    throw IoError(std::string("cannot load ") + *sonames.begin() + " (Debian package " + package + "): " + why);
}

void* symbol(void* lib, const char* name, const char* package) {
    void* p = dlsym(lib, name);
    if (!p)
        throw IoError(std::string("the loaded ") + package + " has no function " + name +
                      "; it is older than the toolkit was built for");
    return p;
}

}  // namespace

#define FRONTIER_RESOLVE_FUNCTION(f) api.f = reinterpret_cast<decltype(api.f)>(symbol(lib, #f, package));

const CurlApi& curl_api() {
    static const CurlApi loaded = [] {
        const char* package = "libcurl4";
        void* lib = open_library({"libcurl.so.4", "libcurl.so"}, package);
        CurlApi api;
        FRONTIER_CURL_FUNCTIONS(FRONTIER_RESOLVE_FUNCTION)
        return api;
    }();
    return loaded;
}

const PqApi& pq_api() {
    static const PqApi loaded = [] {
        const char* package = "libpq5";
        void* lib = open_library({"libpq.so.5", "libpq.so"}, package);
        PqApi api;
        FRONTIER_PQ_FUNCTIONS(FRONTIER_RESOLVE_FUNCTION)
        return api;
    }();
    return loaded;
}

const XmlApi& xml_api() {
    static const XmlApi loaded = [] {
        const char* package = "libxml2";
        void* lib = open_library({"libxml2.so.2", "libxml2.so"}, package);
        XmlApi api;
        FRONTIER_XML_FUNCTIONS(FRONTIER_RESOLVE_FUNCTION)
        return api;
    }();
    return loaded;
}

#undef FRONTIER_RESOLVE_FUNCTION

}  // namespace frontier
