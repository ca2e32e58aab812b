// Boost.JSON compiled into each libFuzzer binary, with the binary's instrumentation: the
// distribution's libboost_json is built without coverage or sanitizers, so the fuzzer would be
// blind inside the parser. These definitions take precedence over the shared library's.
#include <boost/json/src.hpp>  // IWYU pragma: keep
