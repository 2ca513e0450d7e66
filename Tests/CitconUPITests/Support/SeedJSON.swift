import Foundation

// Shared with Tools/Tests/CitconUPIToolsTests (a link to this file).

/// The seed's two JSON examples, byte for byte, as decoding oracles.
enum SeedJSON {
    /// "An example of a successful sync notification of payment result".
    static let synchronous = """
    {
      "status": "success",
      "app": "citcon_upi",
      "version": "v0.1.1",
      "data": {
        "object": "charge",
        "id": "8b3ac410a2d911ec8410e9f493c7d3ef",
        "reference": "sdk_digit_1647181572.353276",
        "amount": 1,
        "amount_captured": null,
        "amount_refunded": null,
        "currency": "USD",
        "time_created": 1647181576000,
        "time_captured": null,
        "auto_capture": false,
        "status": "succeeded",
        "country": "US",
        "payment": {
          "method": "paypal"
        }
      }
    }
    """

    /// "An example of a successful async notification of payment result" (first block).
    static let asynchronous = """
    {
      "status": "success",
      "app": "citcon_upi",
      "version": "v0.1.1",
      "data": {
        "id": "8b3ac410a2d911ec8410e9f493c7d3ef",
        "object": "charge",
        "amount": 1,
        "currency": "USD",
        "status": "succeeded",
        "time_canceled": "",
        "expiry": null,
        "time_created": 1647181576000,
        "country": "US",
        "reference": "sdk_digit_1647181572.353276",
        "amount_captured": null,
        "amount_refunded": null,
        "time_captured": null,
        "auto_capture": false,
        "payment": {
          "method": "paypal",
          "token": null,
          "type": "",
          "data": {
            "pan": "",
            "expiry": ""
          }
        }
      }
    }
    """

    /// The seed's continuation block (exchange, captures, refunds, chargebacks), as
    /// printed after the asynchronous example.
    static let asynchronousTail = """
        },
        "exchange":{
            "amount":null,
            "currency":null,
            "rate":null
        },
        "captures":{
            "data":[]
        },
        "refunds":{
            "data":[]
        },
        "chargebacks":{
            "data":[]
        }
    }
    }
    """

    /// The asynchronous example with its continuation spliced in where the seed's
    /// layout puts it: after `payment`, inside `data`.
    static var asynchronousComplete: String {
        let cut = asynchronous.range(of: "\n    }\n  }\n}")
        guard let cut else { return asynchronous }
        return String(asynchronous[..<cut.lowerBound]) + "\n" + asynchronousTail
    }
}
