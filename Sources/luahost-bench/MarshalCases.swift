import CBenchBaseline
import Lua

#if canImport(Glibc)
  import Glibc
#endif

/// Case 4: a 1,000-element array and a 1,000-key dictionary, Swift→Lua and Lua→Swift.
struct MarshalCases {
  let repetitions: Int
  let scale: Double
  let count = 1000

  func run() throws -> [Row] {
    let rounds = Int(Double(200) * scale)
    let lua = try LuaState()
    let array = (1...count).map { $0 }
    let keys = (1...count).map { "key\($0)" }
    var dictionary: [String: Int] = [:]
    for (index, key) in keys.enumerated() { dictionary[key] = index }
    let luaArray = try lua.value(array)
    let luaDictionary = try lua.value(dictionary)

    let C = cb_newstate()!
    defer { cb_close(C) }
    let cKeys = keys.map { strdup($0) }
    defer { for key in cKeys { free(key) } }
    let cArray = cb_array_build(C, Int64(count))
    let cDictionary = cKeys.map { UnsafePointer<CChar>($0!) as UnsafePointer<CChar>? }
      .withUnsafeBufferPointer {
        cb_dict_build(C, $0.baseAddress, Int64(count))
      }
    let keyPointers = cKeys.map { UnsafePointer<CChar>($0!) as UnsafePointer<CChar>? }

    let medians = try Measure.interleaved(
      repetitions: repetitions,
      [
        { try Measure.perOp(rounds) { for _ in 0..<rounds { blackHole(try lua.value(array)) } } },
        {
          Measure.perOp(rounds) {
            for _ in 0..<rounds { cb_unref(C, cb_array_build(C, Int64(count))) }
          }
        },
        {
          try Measure.perOp(rounds) {
            for _ in 0..<rounds { blackHole(try [Int](luaValue: luaArray)) }
          }
        },
        {
          Measure.perOp(rounds) {
            for _ in 0..<rounds { blackHole(cb_array_read(C, cArray, Int64(count))) }
          }
        },
        {
          try Measure.perOp(rounds) { for _ in 0..<rounds { blackHole(try lua.value(dictionary)) } }
        },
        {
          Measure.perOp(rounds) {
            keyPointers.withUnsafeBufferPointer { buffer in
              for _ in 0..<rounds {
                cb_unref(C, cb_dict_build(C, buffer.baseAddress, Int64(count)))
              }
            }
          }
        },
        {
          try Measure.perOp(rounds) {
            for _ in 0..<rounds { blackHole(try [String: Int](luaValue: luaDictionary)) }
          }
        },
        {
          Measure.perOp(rounds) { for _ in 0..<rounds { blackHole(cb_dict_read(C, cDictionary)) } }
        },
      ])
    return [
      Row(name: "4a. [Int] ×1000 → Lua table", ours: medians[0], baseline: medians[1], target: 2),
      Row(name: "4b. Lua table → [Int] ×1000", ours: medians[2], baseline: medians[3], target: 2),
      Row(
        name: "4c. [String: Int] ×1000 → Lua table", ours: medians[4], baseline: medians[5],
        target: 2),
      Row(
        name: "4d. Lua table → [String: Int] ×1000", ours: medians[6], baseline: medians[7],
        target: 2),
    ]
  }
}
