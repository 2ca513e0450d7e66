// A stub of <UIKit/UIKit.h> for clang's syntax check of the Objective-C scene delegate
// sample (Tests/ObjCStub/SceneDelegate.m), written from Apple's headers:
//   UIResponder.h       @interface UIResponder : NSObject
//   UIScene.h           @interface UIScene : UIResponder; @protocol UISceneDelegate <NSObject>
//                       - (void)scene:(UIScene *)scene willConnectToSession:(UISceneSession *)session
//                                options:(UISceneConnectionOptions *)connectionOptions;
//                       - (void)scene:(UIScene *)scene openURLContexts:(NSSet<UIOpenURLContext *> *)URLContexts;
//   UISceneOptions.h    @interface UISceneConnectionOptions : NSObject
//                       @property (nonatomic, readonly, copy) NSSet<UIOpenURLContext *> *URLContexts;
//   UISceneDefinitions  @interface UIOpenURLContext : NSObject  @property (nonatomic, readonly, copy) NSURL *URL;
//   UIWindowScene.h     @protocol UIWindowSceneDelegate <UISceneDelegate>  @property (nullable, strong) UIWindow *window;
// It proves the sample compiles against those signatures; not that it links or runs.
#pragma once
#import <Foundation/Foundation.h>
#pragma clang assume_nonnull begin
@interface NSSet<__covariant ObjectType> : NSObject
@property (readonly) NSUInteger count;
@property (nullable, nonatomic, readonly) ObjectType anyObject;
@end
@interface UIResponder : NSObject
@end
@interface UIWindow : UIResponder
@end
@interface UISceneSession : NSObject
@end
@interface UIOpenURLContext : NSObject
@property (nonatomic, readonly, copy) NSURL *URL;
@end
@interface UISceneConnectionOptions : NSObject
@property (nonatomic, readonly, copy) NSSet<UIOpenURLContext *> *URLContexts;
@end
@interface UIScene : UIResponder
@end
@protocol UISceneDelegate <NSObject>
@optional
- (void)scene:(UIScene *)scene willConnectToSession:(UISceneSession *)session options:(UISceneConnectionOptions *)connectionOptions;
- (void)scene:(UIScene *)scene openURLContexts:(NSSet<UIOpenURLContext *> *)URLContexts;
@end
@protocol UIWindowSceneDelegate <UISceneDelegate>
@optional
@property (nullable, nonatomic, strong) UIWindow *window;
@end
#pragma clang assume_nonnull end
