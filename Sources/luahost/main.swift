import LuaHostCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The executable only gathers the process's inputs; LuaHost does the work.
let runner = ScriptRunner(
  programName: CommandLine.arguments.first ?? "luahost",
  arguments: Array(CommandLine.arguments.dropFirst()),
  environment: ProcessEnvironment.current,
  stdinIsTerminal: isatty(0) != 0)
exit(runner.run().rawValue)
