// The Swift overlay of the stub `ObjectiveC` module: the few declarations the compiler
// looks up to print an Objective-C header (ObjCBool and its conversions, Selector), as
// Apple's overlay declares them. Built by scripts/objc-typecheck.sh.
@_exported import ObjectiveC

/// The Objective-C BOOL type.
@frozen public struct ObjCBool: ExpressibleByBooleanLiteral, Sendable {
    var value: Int8
    /// A BOOL of `value`.
    public init(_ value: Bool) { self.value = value ? 1 : 0 }
    /// The value as a Swift Bool.
    public var boolValue: Bool { value != 0 }
    /// A BOOL literal.
    public init(booleanLiteral value: Bool) { self.init(value) }
}

/// What the compiler calls to pass a Bool as a BOOL.
public func _convertBoolToObjCBool(_ x: Bool) -> ObjCBool { ObjCBool(x) }
/// What the compiler calls to read a BOOL as a Bool.
public func _convertObjCBoolToBool(_ x: ObjCBool) -> Bool { x.boolValue }

/// An Objective-C selector.
@frozen public struct Selector { var pointer: OpaquePointer? }
