import Testing
import ViewTree

@Suite(.timeLimit(.minutes(30))) struct ViewTests {
  @Test func addKeepsOrderAndSetsParent() throws {
    let root = View.window()
    let a = try root.add(.text("A", id: "a"))
    let c = try root.add(.text("C", id: "c"))
    let b = try root.insert(.text("B", id: "b"), at: 1)
    #expect(root.children.map(\.id) == ["a", "b", "c"])
    #expect(a.parent === root && b.parent === root && c.parent === root)
    #expect(b.text == "B")
  }

  @Test func pathJoinsIdsFromTheRoot() throws {
    let t = try seedTree()
    #expect(t.crash.path == "root/guard/deep/crash")
    #expect(t.root.path == "root")
    #expect(t.crash.depth == 3)
    #expect(t.crash.root === t.root)
  }

  /// `depth` is kept between reads until the shape of a tree changes: every way a parent
  /// changes (a move, a removal, a parent freed, a new ancestor above) must count.
  @Test func depthFollowsEveryChangeOfShape() throws {
    let t = try seedTree()
    #expect(t.crash.depth == 3)
    try t.root.add(t.crash)  // a move up
    #expect(t.crash.depth == 1)
    let holder = try t.guardView.add(.stack(id: "holder"))
    try holder.add(t.crash)  // a move down
    #expect(t.crash.depth == 3)
    holder.removeFromParent()  // an ancestor detached
    #expect(t.crash.depth == 1)
    let top = View.window(id: "top")
    try top.add(holder)  // a new ancestor above
    #expect(t.crash.depth == 2)
    holder.removeAllChildren()
    #expect(t.crash.depth == 0)
    var parent: View? = View.window(id: "short-lived")
    try parent!.add(t.crash)
    #expect(t.crash.depth == 1)
    parent = nil  // the parent freed
    #expect(t.crash.depth == 0)
  }

  @Test func findIsDepthFirstAndIncludesSelf() throws {
    let root = View.window()
    let left = try root.add(.stack(id: "left"))
    let deepX = try left.add(.text("deep", id: "x"))
    try root.add(.text("shallow", id: "x"))
    #expect(root.find("x") === deepX)
    #expect(root.find("root") === root)
    #expect(root.find("missing") == nil)
    #expect(left.find(where: { $0.kind == .text }) === deepX)
  }

  @Test func moveChangesParentAndPath() throws {
    let root = View.window()
    let a = try root.add(.stack(id: "a"))
    let b = try root.add(.stack(id: "b"))
    let leaf = try a.add(.text("x", id: "leaf"))
    try leaf.move(to: b)
    #expect(a.children.isEmpty)
    #expect(b.children == [leaf])
    #expect(leaf.path == "root/b/leaf")
  }

  @Test func moveWithinTheSameParentUsesTheFinalIndex() throws {
    let root = View.window()
    let a = try root.add(.text("a", id: "a"))
    try root.add(.text("b", id: "b"))
    try root.add(.text("c", id: "c"))
    try a.move(to: root, at: 2)
    #expect(root.children.map(\.id) == ["b", "c", "a"])
    try root.add(root.children[0])
    #expect(root.children.map(\.id) == ["c", "a", "b"])
  }

  @Test func cyclesAreRejectedAndTheTreeIsUnchanged() throws {
    let root = View.window()
    let a = try root.add(.stack(id: "a"))
    let b = try a.add(.stack(id: "b"))
    #expect(throws: ViewTreeError.self) { try b.add(a) }
    #expect(throws: ViewTreeError.self) { try a.add(a) }
    #expect(throws: ViewTreeError.self) { try root.move(to: b) }
    #expect(b.parent === a && a.parent === root && root.parent == nil)
    #expect(b.path == "root/a/b")
  }

  @Test func badIndexThrowsAndLeavesTheChildWhereItWas() throws {
    let root = View.window()
    let a = try root.add(.stack(id: "a"))
    let other = View.stack(id: "other")
    let leaf = try other.add(.text("x", id: "leaf"))
    do throws(ViewTreeError) {
      try a.insert(leaf, at: 5)
      Issue.record("expected an error")
    } catch {
      guard case .indexOutOfRange(5, 0) = error else {
        Issue.record("wrong error \(error)")
        return
      }
    }
    #expect(leaf.parent === other)
  }

  @Test func removeDetaches() throws {
    let root = View.window()
    let a = try root.add(.stack(id: "a"))
    let b = try root.add(.stack(id: "b"))
    #expect(a.removeFromParent())
    #expect(!a.removeFromParent())
    #expect(a.parent == nil && a.path == "a")
    #expect(!root.remove(a))
    #expect(root.remove(b))
    try root.add(a)
    try root.add(b)
    root.removeAllChildren()
    #expect(root.children.isEmpty && a.parent == nil && b.parent == nil)
  }

  @Test func propertiesAndKinds() {
    let field = View.textField("Name", id: "name", value: "Ada")
    #expect(field.kind == .textField)
    #expect(field.title == "Name")
    #expect(field.value == "Ada")
    field.properties["size"] = 12
    field.properties["ratio"] = 0.5
    field.properties["on"] = true
    #expect(field.properties["size"]?.integerValue == 12)
    #expect(field.properties["size"]?.numberValue == 12)
    #expect(field.properties["ratio"]?.numberValue == 0.5)
    #expect(field.properties["on"]?.boolValue == true)
    #expect(field.description == "textField#name")
    #expect(View.boundary().boundary != nil)
    #expect(View.stack().boundary == nil)
  }
}
