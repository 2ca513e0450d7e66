// An Objective-C app as the seeds' were written (ChargeDemo's controller, each app's
// checkout in Tests/ObjCStub/<App>Checkout.m, Citcon's sample), moved to ChargeKit's
// Objective-C face by changing its imports. scripts/objc-typecheck.sh syntax-checks it
// with clang against the header Swift prints for the face. It is not built into anything.
#import "ChargeDemo.h"

@implementation ChargeDemoViewController

- (instancetype)initWithLedgerPath:(NSString *)path {
    if ((self = [super init])) {
        // Was: IFChargeRequest and -[UIApplication openURL:]; the ledger records every hand-off.
        _coordinator = [[CHKPaymentCoordinator alloc] initWithLedgerPath:path openHandler:^(NSString *url, void (^done)(BOOL)) {
            done(YES);   // -[UIApplication openURL:options:completionHandler:] in an app
        }];
    }
    return self;
}

// Was: -[IFChargeResponse initWithURL:] in application:openURL:sourceApplication:annotation:
- (BOOL)application:(id)app openURL:(NSURL *)url options:(NSDictionary<NSString *, id> *)options {
    [self.coordinator handleURL:url completion:^(CHKPaymentResult *result, NSError *error) {
        self.status = result != nil ? result.provider : error.localizedDescription;
    }];
    return YES;
}

// Hand-offs the payment app never answered: ask it, then settle by hand.
- (void)settleForgottenHandoffs {
    [self.coordinator pendingHandoffsWithCompletion:^(NSArray *handoffs, NSError *error) {
        for (NSUInteger index = 0; index < handoffs.count; index++) {
            CHKPendingHandoff *handoff = handoffs[index];
            if (handoff.isSettled) { continue; }
            [self.coordinator resolveHandoff:handoff.nonce outcome:CHKChargeOutcomeDeclined note:@"the app reports no payment"
                                  completion:^(CHKPendingHandoff *settled, NSError *settleError) {}];
        }
    }];
}

// Citcon's sample, unchanged but for its import.
- (void)citconPay:(NSString *)chargeToken {
    [[CPayManager sharedInstance] setMode:CPayENVModeUAT];
    CPayRequest *order = [CPayRequest new];
    order.transaction.reference = @"a3852167-9d10-4e8f-adf1-aef975667a87";
    order.transaction.amount = 100;
    order.transaction.currency = @"USD";
    order.payment.method = @"wechatpay";
    order.urls.ipn = @"https://merchant.example/ipn";
    order.chargeToken = chargeToken;
    order.scheme = @"cpaydemo";
    NSLog(@"%@", [[CPayManager sharedInstance] getVersion]);
    [[CPayManager sharedInstance] requestOrder:order callback:^(CPayResult *resp) {
        if (resp.isPaid && resp.data.amount != NSNotFound) {
            self.status = resp.data.id;
        }
    }];
    [[CPayManager sharedInstance] inquireOrder:@"1234567890123456789" callback:^(CPayResult *resp) {
        self.status = resp.data.status;
    }];
    (void)[[CPayManager sharedInstance] handleURL:[NSURL URLWithString:@"cpaydemo://result"]];
    (void)[CPayManager NTFY_ASYNC];
}

@end
