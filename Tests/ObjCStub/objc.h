// <objc/NSObject.h>: the root class, as the runtime declares it.
#pragma once
#pragma clang assume_nonnull begin
@protocol NSObject
@end
__attribute__((objc_root_class))
@interface NSObject <NSObject>
+ (instancetype)alloc;
+ (instancetype)new;
- (instancetype)init;
@end
#pragma clang assume_nonnull end
