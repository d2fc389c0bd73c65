#if canImport(Glibc)
  import Glibc
#endif

/// Timing helpers: a monotonic clock, medians, and interleaved repetitions.
enum Measure {
  /// Monotonic nanoseconds.
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// Nanoseconds per operation of `body`, which runs `count` operations.
  static func perOp(_ count: Int, _ body: () throws -> Void) rethrows -> Double {
    let start = now()
    try body()
    return Double(now() - start) / Double(count)
  }

  static func median(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return .nan }
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
  }

  /// Runs each sampler once per repetition, alternating their order, so that noise hits
  /// all of them; returns the median of each. A warm-up round is discarded.
  static func interleaved(
    repetitions: Int, _ samplers: [() throws -> Double]
  ) throws -> [Double] {
    for sampler in samplers { _ = try sampler() }
    var samples = Array(repeating: [Double](), count: samplers.count)
    for round in 0..<repetitions {
      let order = round % 2 == 0 ? Array(samplers.indices) : samplers.indices.reversed()
      for index in order { samples[index].append(try samplers[index]()) }
    }
    return samples.map(median)
  }
}

/// Keeps a value alive so the optimiser cannot drop the work that made it.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
