import Testing
import ViewTree

@Suite(.timeLimit(.minutes(30))) struct DeepTreeTests {
  @Test func thousandDeepTreeDispatchesFindsAndBuildsPaths() throws {
    let presenter = RecordingAlertPresenter()
    let (root, leaf) = try chain(depth: 1_000)
    root.environment.alertPresenter = presenter
    let guardView = try #require(root.find("s1"))
    guardView.boundary = BoundaryConfiguration()
    let crash = try leaf.add(throwingButton("crash"))

    #expect(crash.depth == 1_000)
    #expect(root.find("crash") === crash)
    #expect(crash.path.split(separator: "/").count == 1_001)
    #expect(crash.path.hasPrefix("root/s1/s2/"))
    #expect(crash.environment.theme == "light")

    #expect(!crash.tap())
    #expect(guardView.alert?.path == crash.path)
    #expect(presenter.presented.count == 1)
    #expect(root.alert == nil)
  }

  @Test func thousandDeepTreeWithABoundaryAtEveryLevelUsesTheNearest() throws {
    let root = View.window()
    var leaf = root
    for level in 1..<1_000 { leaf = try leaf.add(.boundary(id: "b\(level)")) }
    let crash = try leaf.add(throwingButton("crash"))
    crash.tap()
    #expect(leaf.alert != nil)
    #expect(leaf.parent?.alert == nil)
  }

  @Test func droppingADeepChainFreesEveryViewWithoutRecursion() throws {
    let counter = DeinitCounter()
    weak var weakLeaf: View?
    weak var weakRoot: View?
    do {
      // Deep enough that a recursive release would overflow any thread stack.
      let (root, leaf) = try chain(depth: 200_000)
      let token = counter.token()
      leaf.onTap = { _ in _ = token }
      weakLeaf = leaf
      weakRoot = root
    }
    #expect(weakRoot == nil)
    #expect(weakLeaf == nil)
    #expect(counter.count == 1)
  }

  @Test func aDeepSubtreeHeldElsewhereSurvivesItsParent() throws {
    var kept: View?
    do {
      let (root, _) = try chain(depth: 1_000)
      kept = root.find("s500")
    }
    let survivor = try #require(kept)
    #expect(survivor.parent == nil)
    #expect(survivor.path == "s500")
    #expect(survivor.find("s999") != nil)
    #expect(survivor.find("s999")?.depth == 499)
  }

  @Test func deepEnvironmentReadWalksTheWholeChain() throws {
    let (root, leaf) = try chain(depth: 1_000)
    root.environment.theme = "dark"
    root.setEnvironment(named: "mode", to: "fast")
    #expect(leaf.environment.theme == "dark")
    #expect(leaf.environment[named: "mode"] as? String == "fast")
  }
}
