import Lua

/// What a plugin's `on_unload` returned, copied out of its state as plain data (nil,
/// booleans, numbers, strings, and tables of those), so it outlives that state and can be
/// rebuilt in the next version's.
///
/// The copy is bounded: at most ``maxDepth`` nested tables, ``maxValues`` values and
/// ``maxBytes`` bytes of strings; anything else (a function, a userdata, a coroutine, a
/// cycle, which nests past the depth) refuses the whole value, so the next version starts
/// without state rather than with part of it.
enum PluginHandoff: Sendable {
  case `nil`
  case boolean(Bool)
  case integer(Int64)
  case number(Double)
  case string([UInt8])
  case table([(key: PluginHandoff, value: PluginHandoff)])

  static let maxDepth = 32
  static let maxValues = 100_000
  static let maxBytes = 16 << 20

  /// Why a value cannot be handed over.
  struct Refused: Error, CustomStringConvertible {
    let description: String
  }

  /// Copies `value` (read without metamethods).
  /// - Throws: ``Refused`` for a value that is not plain data or passes a bound.
  init(copying value: LuaValue) throws {
    var budget = (values: Self.maxValues, bytes: Self.maxBytes)
    self = try Self.copy(value, depth: 0, budget: &budget)
  }

  private static func copy(
    _ value: LuaValue, depth: Int, budget: inout (values: Int, bytes: Int)
  ) throws -> PluginHandoff {
    budget.values -= 1
    guard budget.values >= 0 else {
      throw Refused(description: "on_unload's value has more than \(maxValues) values")
    }
    switch value {
    case .nil: return .nil
    case .boolean(let flag): return .boolean(flag)
    case .integer(let number): return .integer(number)
    case .number(let number): return .number(number)
    case .string(let string):
      budget.bytes -= string.bytes.count
      guard budget.bytes >= 0 else {
        throw Refused(description: "on_unload's value has more than \(maxBytes) bytes of strings")
      }
      return .string(Array(string.bytes))
    case .table(let table):
      guard depth < maxDepth else {
        throw Refused(
          description: "on_unload's value nests more than \(maxDepth) tables (or has a cycle)")
      }
      var pairs: [(key: PluginHandoff, value: PluginHandoff)] = []
      for (key, item) in try table.pairs() {
        let copiedKey = try copy(key, depth: depth + 1, budget: &budget)
        pairs.append((copiedKey, try copy(item, depth: depth + 1, budget: &budget)))
      }
      return .table(pairs)
    default:
      throw Refused(
        description: "on_unload returned a \(value.typeName), which is not plain data")
    }
  }

  /// The value rebuilt in `lua` (fresh tables).
  /// - Throws: `LuaError` when `lua` runs out of memory.
  func value(in lua: LuaState) throws -> LuaValue {
    switch self {
    case .nil: return .nil
    case .boolean(let flag): return .boolean(flag)
    case .integer(let number): return .integer(number)
    case .number(let number): return .number(number)
    case .string(let bytes): return .string(LuaString(bytes: bytes))
    case .table(let pairs):
      let table = try lua.makeTable(fieldCapacity: pairs.count)
      for (key, item) in pairs { try table.rawSet(key.value(in: lua), item.value(in: lua)) }
      return .table(table)
    }
  }

}
