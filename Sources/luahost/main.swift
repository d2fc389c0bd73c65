import LuaHostCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// A standard descriptor the parent closed is opened on /dev/null first: the next file the
// process opens (the plugin watcher's inotify descriptor, a script, the error log) would
// otherwise take its number and be read as stdin or written as stdout.
var stdinWasClosed = false
for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
  if descriptor == 0 { stdinWasClosed = true }
  _ = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
}

// The executable only gathers the process's inputs; LuaHost does the work.
var runner = ScriptRunner(
  programName: CommandLine.arguments.first ?? "luahost",
  arguments: Array(CommandLine.arguments.dropFirst()),
  environment: ProcessEnvironment.current,
  stdinIsTerminal: isatty(0) != 0)
runner.stdinWasClosed = stdinWasClosed
exit(runner.run().rawValue)
