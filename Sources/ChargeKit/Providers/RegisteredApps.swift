/// Every payment app ChargeKit speaks, each defined in its own folder.
///
/// Adding an app is a folder with one type conforming to ``PaymentAppDefinition``
/// and one entry here. The order is the order in which a callback's parameters are
/// tried when no ledger names its app: Credit Card Terminal first, because it passes
/// an app's extras through whatever their names.
enum RegisteredApps {
    static let all: [any PaymentAppDefinition.Type] = [CreditCardTerminal.self, SumUp.self, Zettle.self, Square.self, Viva.self, Nexi.self]
}
