// The C library, for the SDK's modules: the one file of this package that names a
// platform module (scripts/portability-check.sh holds every other file to it). Each
// branch sits beside the others; the Darwin one is type-checked on Linux against a stub
// (scripts/darwin-typecheck.sh).
#if canImport(Darwin)
@_exported import Darwin
#elseif canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#endif
