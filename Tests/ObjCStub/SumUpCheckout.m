// A SumUp checkout, on ChargeKit's Objective-C face (a category of the
// controller in ChargeDemo.m; scripts/objc-typecheck.sh syntax-checks it with clang).
#import "ChargeDemo.h"

@implementation ChargeDemoViewController (SumUp)

// Was: SMPPaymentRequest and SumUp's callback URL handling.
- (void)sumUpCheckout {
    CHKChargeOrder *order = [[CHKChargeOrder alloc] initWithAmount:@"10.00" currency:@"EUR"];
    CHKPaymentApp *sumUp = [CHKPaymentApp sumUpWithAffiliateKey:@"YOUR-AFFILIATE-KEY" callbackURL:@"samplepaymentapp://"
                                                    receiptEmail:@"customer@example.com" receiptMobilePhone:nil skipSuccessScreen:YES];
    [self.coordinator chargeOrder:order viaApp:sumUp completion:^(CHKPaymentResult *result, NSError *error) {
        self.status = result.providerStatus;
    }];
}

@end
