// The bytes of an HTML document as the UTF-8 text lib/web/html/tokenizer.hpp
// reads. The encoding is chosen as fetch(1) (LINK EXTRACTION) says: a
// byte order mark; else, for a document that is not pure ASCII, a
// <meta charset> or <meta http-equiv=content-type> in its first 4 KiB;
// else UTF-8 when the bytes are valid UTF-8; else windows-1252 (what the
// WHATWG Encoding Standard reads ISO-8859-1 and US-ASCII labels as).
// Other declared encodings are converted with iconv(3); unknown labels fall
// back to the undeclared rules. U+0000 becomes U+FFFD, as in the standard's
// input stream. The HTTP charset is not used.
#pragma once

#include <string>
#include <string_view>

namespace frontier::html {

// `doc` when it needs no change (the common case: no copy), else the
// converted text, kept in `storage`.
std::string_view to_utf8(std::string_view doc, std::string& storage);

}  // namespace frontier::html
