import CSystem
import Lua
import LuaHost
import Synchronization
import ViewTree

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Drives a ``ReplSession`` from a terminal (line editing, boxes that wait for dismissal,
/// Ctrl-C interrupting running code) or from a pipe (plain, deterministic output).
package final class InteractiveLoop {
  let session: ReplSession
  let terminal: Bool
  let environment: [String: String]
  let colors: Bool
  /// The line that runs (its tag, 1...255, as the SIGINT handler records it) and the
  /// handle Ctrl-C uses on it; nil at the prompt.
  private let running = LockedValue<(tag: UInt8, handle: LuaInterruptHandle)?>(nil)
  /// The tag of the latest line.
  private var lineTag: UInt8 = 0
  /// How many Ctrl-Cs arrived while code ran: one cancels a line that waits.
  private let interrupts = Atomic<Int>(0)

  /// Creates a loop; `terminal` selects libedit, boxes, and Ctrl-C clearing the line at
  /// the prompt.
  package init(session: ReplSession, terminal: Bool, environment: [String: String]) {
    self.session = session
    self.terminal = terminal
    self.environment = environment
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    colors = terminal && !noColor && environment["TERM"] != "dumb"
  }

  /// Runs until end of input or `.exit`.
  package func run() {
    var reader: any LineReader
    if terminal {
      let editing = EditingLineReader(
        completer: session.makeCompleter(), environment: environment)
      reader = editing
    } else {
      reader = PlainLineReader(echo: session.isLuaCompatible)
    }
    // Ctrl-C interrupts running code in either mode, as under `lua -i` (reading a pipe,
    // or writing to one, the REPL died of it). At a plain prompt it ends the process, as
    // it does `lua`'s (`PlainLineReader`).
    startInterruptWatcher()
    drawAlerts(&reader)
    var entry: [UInt8] = []
    while let (line, interrupted) = reader.readLine(prompt: session.prompt) {
      if interrupted {
        session.cancelChunk()
        entry = []
        StandardStreams.out("^C\n")
        continue
      }
      entry = entry.isEmpty ? line : entry + [UInt8(ascii: "\n")] + line
      lineTag = lineTag == 255 ? 1 : lineTag + 1
      let handle = session.interruptHandle
      let interruptsBefore = interrupts.load(ordering: .relaxed)
      markRunning((lineTag, handle))
      var reply = session.submit(bytes: line)
      if reply != .incomplete {
        reader.remember(entry)
        entry = []
      }
      if case .waiting(let evaluation) = reply {
        reply = wait(for: evaluation, interruptsBefore: interruptsBefore)
      }
      markRunning(nil)
      switch reply {
      case .incomplete, .waiting: continue
      case .exit:
        reader.save()
        return
      case .output(let text):
        if !text.isEmpty { StandardStreams.out(text + "\n") }
      case .error(let text):
        StandardStreams.error((colors ? "\u{1B}[31m" + text + "\u{1B}[0m" : text) + "\n")
      }
      if terminal, let editing = reader as? EditingLineReader {
        editing.use(session.makeCompleter())
      }
      drawAlerts(&reader)
    }
    reader.save()
    StandardStreams.out("\n")
  }

  /// Waits for a line that waits for async work: on a terminal with a spinner, which
  /// Ctrl-C stops by cancelling the line (it then ends as `interrupted`): one that came
  /// since the line started, when `interrupts` stood at `before`.
  private func wait(
    for evaluation: ReplSession.Evaluation, interruptsBefore before: Int
  ) -> ReplSession.Reply {
    let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    var frame = 0
    let poll = { () -> Bool in
      if self.terminal {
        StandardStreams.out("\r\(frames[frame % frames.count]) waiting… (Ctrl-C cancels)")
        frame += 1
      }
      return self.interrupts.load(ordering: .relaxed) != before
    }
    let reply =
      (try? Blocking.wait(poll: poll) { await evaluation.reply() }) ?? .error("interrupted")
    if terminal && frame > 0 { StandardStreams.out("\r\u{1B}[K") }
    return reply
  }

  /// Draws the alerts raised since the last input, oldest first: on a terminal as boxes
  /// whose buttons the user picks from (Enter alone dismisses), in a pipe in the plain
  /// form, taking the default at once (so queued ones show too; `.choose N` presses
  /// another button of the last one).
  func drawAlerts(_ reader: inout any LineReader) {
    while true {
      let alerts = session.takeAlerts()
      if alerts.isEmpty { return }
      for (alert, boundary) in alerts {
        // The boundary's views change on plugins' threads too: read under the tree lock.
        let current = View.treeLock.withLock { boundary.alert }
        let latest = current.flatMap { $0.isSame(as: alert) ? $0 : nil } ?? alert
        session.drew(latest, boundary: boundary)
        guard terminal else {
          StandardStreams.out(AlertFormatter.plain(latest) + "\n")
          dismiss(latest, at: boundary)
          continue
        }
        let pick = AlertPicker(alert: latest, colors: colors).run()
        StandardStreams.out("\r\u{1B}[K")
        if case .button(let index) = pick, index != latest.actions.count - 1 {
          let label = latest.actions[index].label.visibleControls(keepingNewlines: false)
          StandardStreams.out("chose \(label)\n")
          session.choose(at: index)
        } else {
          dismiss(latest, at: boundary)
        }
      }
    }
  }

  /// Takes the default of a drawn alert: dismisses it if it is still the boundary's
  /// current one (a script may have dismissed it already; another current alert is drawn
  /// in its own turn).
  private func dismiss(_ alert: Alert, at boundary: View) {
    View.treeLock.withLock {
      if boundary.alert?.isSame(as: alert) == true { boundary.dismiss() }
    }
  }

  /// Publishes the line that runs, or none: to the watcher, and (its tag) to the SIGINT
  /// handler, which writes the tag into the pipe.
  private func markRunning(_ line: (tag: UInt8, handle: LuaInterruptHandle)?) {
    running.withLock { $0 = line }
    cs_set_running(Int32(line?.tag ?? 0))
  }

  /// A thread that turns each SIGINT into an interrupt of the line it came during. The
  /// watcher may read the pipe late (a loaded machine): a Ctrl-C tagged with another line,
  /// or with none (the prompt's, which the editor handles), is not passed on, and the
  /// interrupt is made holding `running`'s lock, so it cannot outlive its line either (the
  /// library drops an interrupt that lands after its call ended).
  private func startInterruptWatcher() {
    let fd = cs_install_sigint()
    guard fd >= 0 else { return }
    let watcher = InterruptWatcher(
      fd: fd,
      interrupt: { [weak self] tag in
        guard let self else { return }
        self.running.withLock { line in
          guard let line, line.tag == tag else { return }
          self.interrupts.add(1, ordering: .relaxed)
          line.handle.interrupt()
        }
      })
    watcher.start()
  }
}

/// Reads the SIGINT pipe on its own thread.
private final class InterruptWatcher: @unchecked Sendable {
  // @unchecked: `fd` and `interrupt` are set once before the thread starts and only read.
  let fd: Int32
  let interrupt: (UInt8) -> Void

  init(fd: Int32, interrupt: @escaping (UInt8) -> Void) {
    self.fd = fd
    self.interrupt = interrupt
  }

  func start() {
    var thread = pthread_t()
    let context = Unmanaged.passRetained(self).toOpaque()
    pthread_create(
      &thread, nil,
      { context in
        let watcher = Unmanaged<InterruptWatcher>.fromOpaque(context!).takeRetainedValue()
        // SIGINT must interrupt the main thread's read at the prompt, not this one.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        var byte: UInt8 = 0
        while true {
          let count = read(watcher.fd, &byte, 1)
          if count > 0 {
            watcher.interrupt(byte)
          } else if count < 0 && errno == EINTR {
            continue
          } else {
            break
          }
        }
        return nil
      }, context)
    pthread_detach(thread)
  }
}
