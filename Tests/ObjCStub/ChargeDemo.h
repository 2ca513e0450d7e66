// The view controller of an Objective-C app as the seeds' were written, shared by
// ChargeDemo.m and each app's checkout (Tests/ObjCStub/<App>Checkout.m, a category).
#import "ChargeKitObjC-Swift.h"

#pragma clang assume_nonnull begin

@interface ChargeDemoViewController : NSObject
@property (nonatomic, strong) CHKPaymentCoordinator *coordinator;
@property (nonatomic, copy, nullable) NSString *status;
@end

#pragma clang assume_nonnull end
