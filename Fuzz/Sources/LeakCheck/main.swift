import LuaHostFuzzing

#if canImport(Glibc)
  import Glibc
#endif

// Usage: LeakCheck [ITERATIONS] [WARMUP]
// Runs WARMUP sandboxes, measures the resident memory, runs ITERATIONS more and measures
// again. Prints `before BYTES after BYTES`; exits 1 if a promise broke along the way.
// It runs in its own process so that other tests' allocations do not blur the numbers.
// ThreadSanitizer keeps its own metadata for freed memory, so resident memory says
// nothing about leaks there: run a tenth of the loop, for its race checks only, and say so.
let underThreadSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let iterations = (arguments.first ?? 10_000) / (underThreadSanitizer ? 10 : 1)
let warmup = arguments.dropFirst().first ?? 1_000
var violations = LeakLoop.run(iterations: warmup)
let before = LeakLoop.residentBytes()
violations += LeakLoop.run(iterations: iterations)
let after = LeakLoop.residentBytes()
print("before \(before) after \(after)" + (underThreadSanitizer ? " tsan" : ""))
for violation in violations.prefix(10) { print("violation: \(violation)") }
exit(violations.isEmpty ? 0 : 1)
