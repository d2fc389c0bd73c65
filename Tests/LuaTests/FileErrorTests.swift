import Foundation
import Lua
import Testing

/// The `.file` error kind: `LuaState.readFile` and `load(file:)` of what cannot be read.
@Suite(.timeLimit(.minutes(30))) struct FileErrorTests {
  let lua: LuaState
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("luahost-files-\(UUID())").path

  init() throws {
    lua = try LuaState()
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  /// Runs `body` on another thread and returns the error it threw, failing the test if it
  /// is still running after 60 s (a read that blocks, which would wait for ever; a refusal
  /// comes at once, so the bound is generous); `unblock` then ends that read.
  func errorWithoutBlocking(
    unblock: @escaping @Sendable () -> Void = {}, _ body: @escaping @Sendable () throws -> Void
  ) -> LuaError? {
    let box = ErrorBox()
    let done = DispatchSemaphore(value: 0)
    Thread {
      do { try body() } catch { box.error = error }
      done.signal()
    }.start()
    if done.wait(timeout: .now() + 60) == .timedOut {
      Issue.record("the read blocked")
      unblock()
      done.wait()
    }
    return box.error as? LuaError
  }

  @Test func missingFile() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/missing.lua"
    let read = try #require(throws: LuaError.self) { try LuaState.readFile(path) }
    #expect(read.kind == .file)
    #expect(read.message == "cannot open \(path): No such file or directory")
    let load = try #require(throws: LuaError.self) { try lua.load(file: path) }
    #expect(load.kind == .file)
    #expect(load.message == "cannot open \(path): No such file or directory")
    let run = try #require(throws: LuaError.self) { try lua.run(file: path) }
    #expect(run.kind == .file)
  }

  @Test func directory() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let read = try #require(throws: LuaError.self) { try LuaState.readFile(folder) }
    #expect(read.kind == .file)
    #expect(read.message == "cannot read \(folder): Is a directory")
    let load = try #require(throws: LuaError.self) { try lua.load(file: folder) }
    #expect(load.kind == .file)
    #expect(load.message == "cannot read \(folder): Is a directory")
  }

  @Test func fifoIsRefusedWithoutBlocking() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/fifo"
    #expect(mkfifo(path, 0o600) == 0)
    // Opening the FIFO for writing ends a read that waits for a writer.
    let unblock: @Sendable () -> Void = {
      let fd = open(path, O_WRONLY | O_NONBLOCK)
      if fd >= 0 { close(fd) }
    }
    let lua = Unchecked(self.lua)
    let load = errorWithoutBlocking(unblock: unblock) { _ = try lua.value.load(file: path) }
    #expect(load?.kind == .file)
    #expect(load?.message == "cannot read \(path): not a regular file")
    let read = errorWithoutBlocking(unblock: unblock) {
      _ = try LuaState.readFile(path, regularFileOnly: true)
    }
    #expect(read?.kind == .file)
    #expect(read?.message == "cannot read \(path): not a regular file")
  }

  @Test func endlessDeviceIsRefusedForLoading() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let lua = Unchecked(self.lua)
    let load = errorWithoutBlocking { _ = try lua.value.load(file: "/dev/zero") }
    #expect(load?.kind == .file)
    #expect(load?.message == "cannot read /dev/zero: not a regular file")
  }

  @Test func fileLargerThanTheLimit() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/big.lua"
    try Data(repeating: UInt8(ascii: "x"), count: 100).write(to: URL(fileURLWithPath: path))
    let error = try #require(throws: LuaError.self) { try LuaState.readFile(path, maxSize: 99) }
    #expect(error.kind == .file)
    #expect(error.message == "cannot read \(path): larger than 99 bytes")
    #expect(try LuaState.readFile(path, maxSize: 100).count == 100)
  }

  @Test func aReadableFileStillLoadsAfterwards() throws {
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/ok.lua"
    try Data("return 6 * 7".utf8).write(to: URL(fileURLWithPath: path))
    _ = try? lua.load(file: folder + "/missing.lua")
    #expect(try lua.run(file: path) == [42])
  }
}

/// A value handed to one other thread, which alone uses it until it signals.
private final class Unchecked<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// Written by one thread, read after its semaphore is signalled.
private final class ErrorBox: @unchecked Sendable {
  var error: (any Error)?
}
