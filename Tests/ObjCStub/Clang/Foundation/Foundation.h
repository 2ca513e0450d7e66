// A stub of <Foundation/Foundation.h> for clang's syntax check of an Objective-C caller
// against the header Swift prints for the Objective-C face (scripts/objc-typecheck.sh):
// the classes and types that header and the caller use, from Apple's documented
// declarations. Linux's Swift prints corelibs Foundation's classes under their Swift
// runtime names (_TtC10Foundation8NSString…); each is an alias of its class here.
#pragma once
#include <stdint.h>
#include <stddef.h>
#include "../../objc.h"
#pragma clang assume_nonnull begin
#ifndef nil
#define nil ((id)0)
#endif
typedef signed char BOOL;
#define YES ((BOOL)1)
#define NO ((BOOL)0)
typedef long NSInteger;
typedef unsigned long NSUInteger;
#define NSNotFound ((NSInteger)0x7fffffffffffffffL)
@interface NSString : NSObject
@property (readonly) NSUInteger length;
- (BOOL)isEqualToString:(NSString *)other;
@end
@interface NSURL : NSObject
+ (nullable instancetype)URLWithString:(NSString *)URLString;
@property (nullable, readonly, copy) NSString *absoluteString;
@end
@interface NSArray<__covariant ObjectType> : NSObject
@property (readonly) NSUInteger count;
- (ObjectType)objectAtIndexedSubscript:(NSUInteger)index;
@end
@interface NSDictionary<__covariant KeyType, __covariant ObjectType> : NSObject
+ (instancetype)dictionaryWithObjects:(const ObjectType _Nonnull [_Nullable])objects
                              forKeys:(const KeyType _Nonnull [_Nullable])keys count:(NSUInteger)count;
@property (readonly) NSUInteger count;
@end
@interface NSDate : NSObject
@property (readonly) double timeIntervalSinceNow;
@end
@interface NSError : NSObject
@property (readonly, copy) NSString *domain;
@property (readonly) NSInteger code;
@property (readonly, copy) NSString *localizedDescription;
@property (readonly, copy) NSDictionary<NSString *, id> *userInfo;
@end
void NSLog(NSString *format, ...);
@compatibility_alias _TtC10Foundation8NSString NSString;
@compatibility_alias _TtC10Foundation5NSURL NSURL;
@compatibility_alias _TtC10Foundation7NSArray NSArray;
@compatibility_alias _TtC10Foundation12NSDictionary NSDictionary;
@compatibility_alias _TtC10Foundation6NSDate NSDate;
#pragma clang assume_nonnull end
