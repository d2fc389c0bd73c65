import Testing
import ViewTree

/// Item 7: `ErrorBoundary` in the DSL says what `BoundaryConfiguration` can.
@Suite(.timeLimit(.minutes(10))) struct Item07BoundaryModifierTests {
  @Test func modifiersSetRetryResetResetKeysAndTheFilter() throws {
    let root = Window(id: "app") {
      ErrorBoundary(id: "guard") {
        Button("Save", id: "save") { _ in throw Failure("disk full") }
      }
      .retry("Save again")
      .onReset("Start over")
      .resetKeys("document")
      .onError { error, _ in "\(error)" == "ignored" ? .decline : .handle }
    }.makeView()
    let boundary = try #require(root.find("guard"))
    #expect(boundary.boundary?.resetKeys == ["document"])
    #expect(try #require(root.find("save")).tap() == false)  // it failed
    #expect(boundary.alert?.actions.map(\.label) == ["Save again", "Start over", "That sucks"])
    root.environment[named: "document"] = "another"  // a reset key: the content is new
    #expect(boundary.alert == nil)
    #expect(boundary.children.map(\.id) == ["save"])
  }
}
