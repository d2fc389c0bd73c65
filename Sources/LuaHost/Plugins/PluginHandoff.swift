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

  /// Copies `value` (read without metamethods). A bound is checked before what passes it
  /// is copied: a string's length is read in place first, and a table is walked in place,
  /// so a refused value costs the host no more than the bounds (a table holding one 20 MB
  /// string a thousand times was copied whole, 20 GB, before the byte bound refused it).
  /// - Throws: ``Refused`` for a value that is not plain data or passes a bound.
  init(copying value: LuaValue) throws {
    var budget = (values: Self.maxValues, bytes: Self.maxBytes)
    self = try Self.copy(value, depth: 0, budget: &budget)
  }

  private static let tooManyBytes = Refused(
    description: "on_unload's value has more than \(maxBytes) bytes of strings")

  /// Copies the key or value at `position` of a pair read in place; a string that would
  /// pass the byte bound is refused before its bytes are copied.
  private static func copy(
    _ pair: LuaArguments, at position: Int, depth: Int, budget: inout (values: Int, bytes: Int)
  ) throws -> PluginHandoff {
    if let length = pair.stringByteCount(at: position), length > budget.bytes {
      throw tooManyBytes
    }
    return try copy(pair[position], depth: depth, budget: &budget)
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
      guard budget.bytes >= 0 else { throw tooManyBytes }
      return .string(Array(string.bytes))
    case .table(let table):
      guard depth < maxDepth else {
        throw Refused(
          description: "on_unload's value nests more than \(maxDepth) tables (or has a cycle)")
      }
      var pairs: [(key: PluginHandoff, value: PluginHandoff)] = []
      try table.forEachRawPair { pair in
        let copiedKey = try copy(pair, at: 1, depth: depth + 1, budget: &budget)
        pairs.append((copiedKey, try copy(pair, at: 2, depth: depth + 1, budget: &budget)))
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
