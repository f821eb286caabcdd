// Stands in for nlohmann/json on the include path of the layering check (tests/layering/CMakeLists.txt):
// a header that is compiled against it and includes nlohmann, directly or through another header, fails.
#error "this header includes nlohmann/json, which its part's public API must not need (docs/architecture.md)"
