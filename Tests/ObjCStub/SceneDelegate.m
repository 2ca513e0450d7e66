// An Objective-C app's scene delegate, as a scene-based app must have it: iOS delivers
// the payment app's callback URL here, never to -application:openURL:options:. On a cold
// launch it comes with the connection options; while the app runs, to
// -scene:openURLContexts:. Both hand it to -[CHKPaymentCoordinator handleURL:completion:].
// In Info.plist the class is named SceneDelegate (no module prefix: an Objective-C class).
// scripts/objc-typecheck.sh syntax-checks it with clang against the header Swift prints
// for the face and a UIKit stub written from Apple's headers.
#import <UIKit/UIKit.h>
#import "ChargeKitObjC-Swift.h"

@interface SceneDelegate : UIResponder <UIWindowSceneDelegate>
@property (nullable, nonatomic, strong) UIWindow *window;
@property (nonatomic, strong) CHKPaymentCoordinator *coordinator;
@end

@implementation SceneDelegate

- (void)handleContexts:(NSSet<UIOpenURLContext *> *)contexts {
    UIOpenURLContext *context = contexts.anyObject;
    if (context == nil) {
        return;
    }
    // The completion runs once the URL is verified (or refused). The charge that was
    // waiting for this answer completes too, with the same result.
    [self.coordinator handleURL:context.URL completion:^(CHKPaymentResult *result, NSError *error) {
        if (error != nil) {
            NSLog(@"refused: %@ (%@ %ld)", error.localizedDescription, error.domain, (long)error.code);
            return;
        }
        NSLog(@"%@", result.isApprovedSale ? @"paid" : result.message);
    }];
}

// A cold launch: the payment app's answer started the app.
- (void)scene:(UIScene *)scene willConnectToSession:(UISceneSession *)session options:(UISceneConnectionOptions *)connectionOptions {
    self.coordinator = [[CHKPaymentCoordinator alloc] initWithLedgerPath:@"/path/to/Application Support/chargekit-ledger.json"
                                                             openHandler:^(NSString *url, void (^done)(BOOL)) { done(YES); }];
    [self handleContexts:connectionOptions.URLContexts];
}

// The app was running: the answer arrives here.
- (void)scene:(UIScene *)scene openURLContexts:(NSSet<UIOpenURLContext *> *)URLContexts {
    [self handleContexts:URLContexts];
}

@end
