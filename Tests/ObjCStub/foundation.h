// <Foundation/NSError.h>: NSError's designated initializer and properties. Apple
// types `domain` as NSString and `userInfo` as NSDictionary<NSErrorUserInfoKey, id>;
// without Foundation's bridging (corelibs Foundation has none to Objective-C) they are
// `id` here, which String and [String: Any] still convert to.
#pragma once
#import "objc.h"
#pragma clang assume_nonnull begin
@interface NSError : NSObject
- (instancetype)initWithDomain:(id)domain code:(long)code userInfo:(nullable id)dict;
@property (readonly) long code;
@property (readonly) id domain;
@end
#pragma clang assume_nonnull end
