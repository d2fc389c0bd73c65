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

// The executable only gathers the process's inputs; LuaHost does the work. The words keep
// their bytes (ArgumentText): `CommandLine.arguments` would repair what is not UTF-8.
let words = (0..<Int(CommandLine.argc)).compactMap { index in
  CommandLine.unsafeArgv[index].map { ArgumentText.word(UnsafePointer($0)) }
}
var runner = ScriptRunner(
  programName: words.first ?? "luahost",
  arguments: Array(words.dropFirst()),
  environment: ProcessEnvironment.current,
  stdinIsTerminal: isatty(0) != 0)
runner.stdinWasClosed = stdinWasClosed
exit(runner.run().rawValue)
