// ChargeDemo's charge button, with every field it sets, on ChargeKit's Objective-C face (a category of the
// controller in ChargeDemo.m; scripts/objc-typecheck.sh syntax-checks it with clang).
#import "ChargeDemo.h"

@implementation ChargeDemoViewController (CreditCardTerminal)

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
    fields.address = @"12 St James's Place";
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

@end
