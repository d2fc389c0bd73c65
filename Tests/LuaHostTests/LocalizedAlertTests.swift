import Foundation
import Lua
import LuaHost
import Testing
import ViewTree

struct DiskFull: LocalizedError {
  var errorDescription: String? { "The disk is full." }
  var failureReason: String? { "Only 3 KB are left." }
  var recoverySuggestion: String? { "Delete some notes and try again." }
}

struct Described: Error, CustomStringConvertible {
  var description: String { "described in its own words" }
}

@Suite(.timeLimit(.minutes(30))) struct LocalizedAlertTests: ScriptedWindowSuite {
  let root = View.window(id: "root")
  let recorder = Recorder()
  let tree: ScriptedTree

  init() throws {
    tree = try Self.script(root, recordingWith: recorder)
    try tree.withState { try $0.register("save") { _ in throw DiskFull() } }
    try tree.withState { try $0.register("describe") { _ in throw Described() } }
  }

  @Test func aLocalizedErrorFromSwiftShowsItsThreeTexts() throws {
    let button = View.button("Save", id: "save") { _ in throw DiskFull() }
    try root.add(button)
    button.tap()
    let alert = try #require(recorder.presented.first?.alert)
    #expect(alert.message == "The disk is full.")
    #expect(alert.failureReason == "Only 3 KB are left.")
    #expect(alert.recoverySuggestion == "Delete some notes and try again.")
    #expect(
      AlertFormatter.plain(alert) == """
        alert: Unhandled error
          message: The disk is full.
          reason: Only 3 KB are left.
          suggestion: Delete some notes and try again.
          view: root/save
          dismiss: That sucks
        """)
    #expect(AlertFormatter.box(alert).contains("│ Delete some notes and try again."))
  }

  @Test func aLocalizedErrorThatCrossedLuaShowsTheSameAndKeepsItsLocation() throws {
    try run("ui.root:add(ui.button{ id = 'b', on_tap = function() save() end }):tap()")
    let alert = try #require(recorder.presented.first?.alert)
    #expect(alert.message == "The disk is full.")
    #expect(alert.failureReason == "Only 3 KB are left.")
    #expect(alert.sourceLocation == "test:1")
    let fields = try run(
      """
      local alert = ui.root.alert
      return alert.message, alert.failure_reason, alert.recovery_suggestion
      """)
    #expect(
      fields == ["The disk is full.", "Only 3 KB are left.", "Delete some notes and try again."])
  }

  @Test func otherErrorsShowTheirDescriptionAndLuaErrorsTheirMessage() throws {
    try run("ui.root:add(ui.button{ id = 'd', on_tap = function() describe() end }):tap()")
    root.dismiss()
    try run("ui.root:add(ui.button{ id = 'e', on_tap = function() error('boom') end }):tap()")
    let alerts = recorder.presented.map(\.alert)
    #expect(alerts.map(\.message) == ["described in its own words", "test:1: boom"])
    #expect(alerts.allSatisfy { $0.failureReason == nil && $0.recoverySuggestion == nil })
  }
}
