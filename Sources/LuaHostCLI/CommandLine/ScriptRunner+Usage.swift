extension ScriptRunner {
  /// The `--help` text.
  package static let usage = """
    usage: luahost [options] [script [args]]
           luahost test [options] [PATH...]   (see luahost test --help)
           luahost definitions [--plugins DIR] [--output DIR]   editor and linter files
           luahost new plugin NAME [--in DIR]   a plugin folder that runs and passes its tests
    Available options are:
      -e stat   execute string 'stat'
      -i        enter interactive mode after executing 'script'
      -l mod    require library 'mod' into global 'mod'
      -l g=mod  require library 'mod' into global 'g'
      -v        show version information
      -E        ignore environment variables
      -W        turn warnings on
      --plugins DIR      load the plugins in DIR (each sandboxed, with its own panel)
      --watch            with --plugins: reload a plugin when its files change; with
                         no script, run until stdin closes (or Ctrl-C)
      --error-log FILE   append every routed error to FILE as a line of JSON
      --trusted          full standard library, no sandbox; started through a link
                         named lua, luahost is always trusted (runs Lua's test suite)
      --allow LIBS       grant sandboxed scripts io, os, package and/or debug (comma-separated)
      --memory SIZE      memory limit, e.g. 64M, or none; sandboxed scripts default to
                         256M, plugins to 64M
      --timeout DURATION wall-clock limit per call and for the whole run, timers
                         included, e.g. 500ms, 2s
      --instructions N   instruction budget per call, counted in steps of 1,000 (an
                         empty chunk takes one step)
      --help    show this help
      --        stop handling options
      -         stop handling options and execute stdin
    Exit status: 0 success, 1 script error, 2 usage error (bad option, unreadable script).
    """
}
