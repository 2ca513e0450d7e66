// A stub of the Darwin module for scripts/darwin-typecheck.sh: the C library of Linux
// under Darwin's name, plus the few Apple-only declarations ChargeKit's Darwin branches
// use, with the signatures of Apple's headers:
//   <sys/fcntl.h>:  #define F_FULLFSYNC 51
//   <stdlib.h>:     void arc4random_buf(void *buf, size_t nbytes);
// It proves those branches type-check; it cannot prove they link or behave on Apple's
// systems (the macOS CI workflow runs them there).
@_exported import Glibc

public var F_FULLFSYNC: Int32 { 51 }

public func arc4random_buf(_ buf: UnsafeMutableRawPointer?, _ nbytes: Int) {}
