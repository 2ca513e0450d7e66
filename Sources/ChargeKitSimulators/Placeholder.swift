import ChargeKit
