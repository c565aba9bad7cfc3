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

// `name()`: the Api of the first of the sonames that opens, loaded once.
#define FRONTIER_DEFINE_API(name, Api, FUNCTIONS, debian_package, ...)      \
    const Api& name() {                                                    \
        static const Api loaded = [] {                                     \
            const char* package = debian_package;                          \
            void* lib = open_library({__VA_ARGS__}, package);              \
            Api api;                                                       \
            FUNCTIONS(FRONTIER_RESOLVE_FUNCTION)                           \
            return api;                                                    \
        }();                                                               \
        return loaded;                                                     \
    }

FRONTIER_DEFINE_API(curl_api, CurlApi, FRONTIER_CURL_FUNCTIONS, "libcurl4", "libcurl.so.4", "libcurl.so")
FRONTIER_DEFINE_API(pq_api, PqApi, FRONTIER_PQ_FUNCTIONS, "libpq5", "libpq.so.5", "libpq.so")
FRONTIER_DEFINE_API(xml_api, XmlApi, FRONTIER_XML_FUNCTIONS, "libxml2", "libxml2.so.2", "libxml2.so")
FRONTIER_DEFINE_API(psl_api, PslApi, FRONTIER_PSL_FUNCTIONS, "libpsl5", "libpsl.so.5", "libpsl.so")
FRONTIER_DEFINE_API(idn2_api, Idn2Api, FRONTIER_IDN2_FUNCTIONS, "libidn2-0", "libidn2.so.0", "libidn2.so")

#undef FRONTIER_DEFINE_API
#undef FRONTIER_RESOLVE_FUNCTION

}  // namespace frontier
