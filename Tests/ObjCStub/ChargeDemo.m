// An Objective-C app as the seeds' were written (ChargeDemo's controller, a SumUp
// checkout, Citcon's sample), moved to ChargeKit's Objective-C face by changing its
// imports. scripts/objc-typecheck.sh syntax-checks it with clang against the header
// Swift prints for the face. It is not built into anything.
#import "ChargeKitObjC-Swift.h"

@interface ChargeDemoViewController : NSObject
@property (nonatomic, strong) CHKPaymentCoordinator *coordinator;
@property (nonatomic, copy, nullable) NSString *status;
@end

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

// Was: IFChargeRequest *request = [[IFChargeRequest alloc] initWithDelegate:self]; request.amount = @"10.99"; [request submit];
- (void)chargeButtonTapped {
    CHKChargeOrder *order = [[CHKChargeOrder alloc] initWithAmount:@"10.99" currency:@"USD"];
    if (order == nil) {
        NSError *why = [CHKChargeOrder validationErrorForAmount:@"10.99" currency:@"USD"];
        self.status = why.localizedDescription;
        return;
    }
    order.orderDescription = @"Coffee";
    order.reference = @"order-42";
    order.extraParams = @{ @"record_id": @"123" };
    // Was: chargeRequest.firstName … chargeRequest.taxRate: every field ChargeDemo sets.
    CHKCreditCardTerminalFields *fields = [CHKCreditCardTerminalFields new];
    fields.firstName = @"Ada";
    fields.lastName = @"Lovelace";
    fields.company = @"Analytical Engines Ltd";
    fields.address = @"12 St James's Square";
    fields.city = @"London";
    fields.state = @"London";
    fields.zip = @"SW1Y 4JH";
    fields.country = @"GB";
    fields.phone = @"+44 20 7946 0000";
    fields.email = @"ada@example.com";
    fields.taxRate = @"8.5";       // or @"default": the rate the user preset
    CHKPaymentApp *app = [CHKPaymentApp creditCardTerminalWithReturnURL:@"com-innerfence-ChargeDemo://chargeResponse" fields:fields];
    [self.coordinator chargeOrder:order viaApp:app completion:^(CHKPaymentResult *result, NSError *error) {
        if (error != nil) {
            if ([error.domain isEqualToString:CHKPaymentCoordinator.errorDomain] && error.code == CHKErrorCodeReplayedNonce) {
                self.status = @"Already handled";
            } else {
                self.status = error.localizedDescription;
            }
            return;
        }
        switch (result.outcome) {
            case CHKChargeOutcomeApproved:
                // Was: response.transactionId, cardType, redactedCardNumber, taxAmount, tipAmount, extraParams.
                self.status = result.isApprovedSale ? result.transactionID : @"not a sale";
                NSLog(@"%@ %@ tax %@ tip %@ record %@", result.cardType, result.redactedCardNumber, result.taxAmount,
                      result.tipAmount, result.extraParams.count > 0 ? @"kept" : @"none");
                break;
            case CHKChargeOutcomeDeclined:
            case CHKChargeOutcomeCancelled:
            case CHKChargeOutcomeFailed:
                self.status = result.message;
                break;
        }
    }];
}

// Was: SMPPaymentRequest and SumUp's callback URL handling.
- (void)sumUpCheckout {
    CHKChargeOrder *order = [[CHKChargeOrder alloc] initWithAmount:@"10.00" currency:@"EUR"];
    CHKPaymentApp *sumUp = [CHKPaymentApp sumUpWithAffiliateKey:@"YOUR-AFFILIATE-KEY" callbackURL:@"samplepaymentapp://"
                                                    receiptEmail:@"customer@example.com" receiptMobilePhone:nil skipSuccessScreen:YES];
    [self.coordinator chargeOrder:order viaApp:sumUp completion:^(CHKPaymentResult *result, NSError *error) {
        self.status = result.providerStatus;
    }];
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
