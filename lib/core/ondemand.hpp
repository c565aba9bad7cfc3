// Libraries that only some runs need, opened at their first use instead of
// at every process start: libpq (only a postgresql:// frontier needs it),
// libcurl's URL and date functions outside `fetch` (frontier-lease,
// frontier-report, frontier-config and frontier-budget never parse a URL),
// libxml2, which reads sitemaps only (it loads ICU and liblzma with it, a
// share of every short tool call of their own), libpsl (a host name's
// registrable domain) and libidn2 (a host name that is not ASCII).
// Linking them made every tool start load and relocate libcurl's and
// libpq's own dozens of dependencies (TLS, Kerberos, LDAP, SSH), a large
// share of a short `frontier-lease` call. `fetch` still links libcurl;
// opening it again here returns the copy already loaded.
//
// The functions are the libraries' own, with their declared types; a call
// through the table is a call into the library.
#pragma once

#include <curl/curl.h>
#include <idn2.h>
#include <libpq-fe.h>
#include <libpsl.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

namespace frontier {

#define FRONTIER_CURL_FUNCTIONS(X) \
    X(curl_url) X(curl_url_set) X(curl_url_get) X(curl_url_cleanup) X(curl_free) X(curl_getdate) X(curl_version_info)

#define FRONTIER_PSL_FUNCTIONS(X) X(psl_builtin) X(psl_registrable_domain)
#define FRONTIER_IDN2_FUNCTIONS(X) X(idn2_lookup_u8) X(idn2_free)

// xmlGenericError and the like are macros over the __xml* functions.
#define FRONTIER_XML_FUNCTIONS(X)                                                                            \
    X(xmlInitParser) X(xmlSetGenericErrorFunc) X(xmlSetStructuredErrorFunc) X(__xmlGenericError)             \
    X(__xmlGenericErrorContext) X(__xmlStructuredError) X(__xmlStructuredErrorContext) X(xmlStopParser)      \
    X(xmlDictSize) X(xmlCreateIOParserCtxt) X(xmlCtxtUseOptions) X(xmlParseDocument) X(xmlFreeParserCtxt)

// clang-format off
#define FRONTIER_PQ_FUNCTIONS(X)                                                                              \
    X(PQbackendPID) X(PQclear) X(PQcmdStatus) X(PQcmdTuples) X(PQconnectdbParams) X(PQconsumeInput)          \
    X(PQenterPipelineMode) X(PQerrorMessage) X(PQexec) X(PQexecParams) X(PQexecPrepared)                     \
    X(PQexitPipelineMode) X(PQfinish) X(PQflush) X(PQfreemem) X(PQftype) X(PQgetResult) X(PQgetisnull)       \
    X(PQgetlength) X(PQgetvalue) X(PQlibVersion) X(PQnotifies) X(PQntuples) X(PQpipelineSync) X(PQprepare)   \
    X(PQresultErrorMessage) X(PQresultStatus) X(PQreset) X(PQsendPrepare) X(PQsendQueryParams)               \
    X(PQsendQueryPrepared) X(PQsetNoticeProcessor) X(PQsocket) X(PQstatus) X(PQtrace)
// clang-format on

#define FRONTIER_DECLARE_FUNCTION(f) decltype(&::f) f;

struct CurlApi {
    FRONTIER_CURL_FUNCTIONS(FRONTIER_DECLARE_FUNCTION)
};

struct PqApi {
    FRONTIER_PQ_FUNCTIONS(FRONTIER_DECLARE_FUNCTION)
};

struct XmlApi {
    FRONTIER_XML_FUNCTIONS(FRONTIER_DECLARE_FUNCTION)
};

struct PslApi {
    FRONTIER_PSL_FUNCTIONS(FRONTIER_DECLARE_FUNCTION)
};

struct Idn2Api {
    FRONTIER_IDN2_FUNCTIONS(FRONTIER_DECLARE_FUNCTION)
};

#undef FRONTIER_DECLARE_FUNCTION

// Loaded once per process (thread-safe); throws IoError naming the Debian
// package when the library or one of its functions cannot be found.
const CurlApi& curl_api();
const PqApi& pq_api();
const XmlApi& xml_api();
const PslApi& psl_api();
const Idn2Api& idn2_api();

}  // namespace frontier
