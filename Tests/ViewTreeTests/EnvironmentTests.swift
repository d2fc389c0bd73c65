import Testing
import ViewTree

@Suite(.timeLimit(.minutes(30))) struct EnvironmentTests {
  @Test func defaultsApplyWhereNothingIsSet() {
    let view = View.stack()
    #expect(view.environment.theme == "light")
    #expect(view.environment[named: "theme"] == nil)
    #expect(!view.environment.contains(ThemeKey.self))
    #expect(EnvironmentValues(view: nil).theme == "light")
  }

  @Test func descendantsInheritAndTheNearerValueWins() throws {
    let root = View.window()
    let outer = try root.add(.stack(id: "outer"))
    let inner = try outer.add(.stack(id: "inner"))
    let leaf = try inner.add(.text("x"))
    let sibling = try root.add(.stack(id: "sibling"))
    root.environment.theme = "dark"
    inner.setEnvironment(ThemeKey.self, to: "solarized")
    #expect(outer.environment.theme == "dark")
    #expect(inner.environment.theme == "solarized")
    #expect(leaf.environment.theme == "solarized")
    #expect(sibling.environment.theme == "dark")
    inner.removeEnvironment(ThemeKey.self)
    #expect(leaf.environment.theme == "dark")
  }

  @Test func keyPathSetterWorks() {
    let root = View.window()
    root.setEnvironment(\.theme, to: "high-contrast")
    #expect(root.environment.theme == "high-contrast")
    #expect(root.environment[ThemeKey.self] == "high-contrast")
  }

  @Test func namedValuesInheritShadowAndUnset() throws {
    let root = View.window()
    let panel = try root.add(.stack(id: "panel"))
    let leaf = try panel.add(.text("x"))
    root.environment[named: "theme"] = "dark"
    #expect(leaf.environment[named: "theme"] as? String == "dark")
    panel.setEnvironment(named: "theme", to: 42)
    #expect(leaf.environment[named: "theme"] as? Int == 42)
    #expect(panel.localEnvironmentNames == ["theme"])
    panel.setEnvironment(named: "theme", to: nil)
    #expect(leaf.environment[named: "theme"] as? String == "dark")
    root.setEnvironment(named: "lang", to: "en")
    #expect(leaf.environment.names == ["lang", "theme"])
  }

  @Test func movingAViewChangesWhatItSees() throws {
    let root = View.window()
    let dark = try root.add(.stack(id: "dark"))
    let light = try root.add(.stack(id: "light"))
    dark.environment.theme = "dark"
    dark.setEnvironment(named: "mood", to: "grim")
    let leaf = try dark.add(.text("x"))
    #expect(leaf.environment.theme == "dark")
    try leaf.move(to: light)
    #expect(leaf.environment.theme == "light")
    #expect(leaf.environment[named: "mood"] == nil)
    try leaf.move(to: dark)
    #expect(leaf.environment[named: "mood"] as? String == "grim")
    leaf.removeFromParent()
    #expect(leaf.environment.theme == "light")
  }

  @Test func anOptionalValueCanBeHiddenWithNil() throws {
    let presenter = RecordingAlertPresenter()
    let root = View.window()
    root.environment.alertPresenter = presenter
    let quiet = try root.add(.boundary(id: "quiet"))
    quiet.environment.alertPresenter = nil
    #expect(quiet.environment.alertPresenter == nil)
    #expect(root.environment.alertPresenter === presenter)
    try quiet.add(throwingButton("crash")).tap()
    #expect(quiet.alert != nil)
    #expect(presenter.events.isEmpty)
    quiet.removeEnvironment(AlertPresenterKey.self)
    #expect(quiet.environment.alertPresenter === presenter)
  }

  @Test func errorHandlerIsBoundToTheViewItWasReadFrom() throws {
    let t = try seedTree()
    #expect(t.crash.environment.errorHandler.origin === t.crash)
  }
}
