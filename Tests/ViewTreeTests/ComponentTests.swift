import Testing
import ViewTree

private struct ThemedLabel: Component {
  @Environment(\.theme) var theme
  @Environment(\.[named: "user"]) var user

  var body: some Component {
    Text("\(theme) for \(user as? String ?? "nobody")", id: "label")
  }
}

private struct Toolbar: Component {
  var items: [String]
  var showHelp: Bool

  var body: some Component {
    for item in items {
      Button(item, id: item.lowercased()) { _ in }
    }
    if showHelp {
      Text("Help", id: "help")
    } else {
      Text("No help", id: "nohelp")
    }
  }
}

private struct LiveReader: Component {
  @Environment(\.theme) var theme
  var record: (String) -> Void

  var body: some Component {
    Button("Read", id: "read") { [theme = _theme] _ in record(theme.wrappedValue) }
  }
}

@Suite(.timeLimit(.minutes(30))) struct ComponentTests {
  @Test func theBuilderMakesLiveViewsInOrder() throws {
    let root = Window(id: "app", title: "Demo") {
      Stack(id: "main") {
        Text("Hello", id: "hello")
        TextField("Name", id: "name", value: "Ada")
        Group(id: "g") { Toolbar(items: ["Open", "Save"], showHelp: true) }
      }
    }.makeView()
    #expect(root.kind == .window && root.title == "Demo")
    let main = try #require(root.find("main"))
    #expect(main.children.map(\.id) == ["hello", "name", "g"])
    #expect(main.children.map(\.kind) == [.text, .textField, .group])
    #expect(root.find("g")?.children.map(\.id) == ["open", "save", "help"])
    #expect(root.find("name")?.value == "Ada")
    #expect(root.find("save")?.path == "app/main/g/save")
  }

  @Test func elseBranchAndEmptyContent() throws {
    let root = Window {
      Toolbar(items: [], showHelp: false)
      Stack {}
    }.makeView()
    #expect(root.children.map(\.id) == ["nohelp", "stack"])
  }

  @Test func environmentPropertiesReadTheirMountPoint() throws {
    let root = Window {
      Stack(id: "panel") { ThemedLabel() }
        .environment(\.theme, "dark")
        .environment(named: "user", "ada")
    }.makeView()
    let panel = try #require(root.find("panel"))
    #expect(panel.kind == .stack)
    #expect(panel.environment.theme == "dark")
    #expect(root.find("label")?.text == "dark for ada")
  }

  @Test func aModifierOnACompositeWrapsItInAGroup() throws {
    let root = Window { ThemedLabel().environment(\.theme, "sepia") }.makeView()
    #expect(root.children.first?.kind == .group)
    #expect(root.find("label")?.text == "sepia for nobody")
  }

  @Test func environmentReadsStayLiveAfterMounting() throws {
    var seen: [String] = []
    let root = Window {
      Stack(id: "a") { LiveReader { seen.append($0) } }
    }.makeView()
    let read = try #require(root.find("read"))
    read.tap()
    try #require(root.find("a")).environment.theme = "dark"
    read.tap()
    #expect(seen == ["light", "dark"])
  }

  @Test func errorBoundaryOptionsReachTheLiveView() throws {
    let root = Window {
      ErrorBoundary(id: "g", title: "Oops", dismissLabel: "OK", onError: { _, _ in .decline }) {
        Button("Crash", id: "crash") { _ in throw MyError() }
      }
    }.makeView()
    try #require(root.find("crash")).tap()
    #expect(root.find("g")?.boundary?.title == "Oops")
    #expect(root.find("g")?.alert == nil)
    #expect(root.alert?.isUnhandled == true)
  }

  @Test func mountAddsComponentsUnderAnExistingView() throws {
    let root = View.window()
    let added = root.mount {
      Text("a", id: "a")
      ErrorBoundary { Text("b", id: "b") }
    }
    #expect(added.map(\.id) == ["a", "boundary"])
    #expect(root.find("b")?.path == "root/boundary/b")
  }

  @Test func projectedValueIsTheMountPoint() throws {
    let label = ThemedLabel()
    #expect(label.$theme == nil)
    let root = View.window()
    root.mount(label)
    #expect(label.$theme === root)
  }
}

@Suite(.timeLimit(.minutes(30))) struct CustomViewTests {
  @Test func aCustomViewMountsWhatItMakes() throws {
    let slider = View(id: "volume", kind: ViewKind("slider"))
    let root = Window {
      ErrorBoundary(id: "guard") { CustomView { slider } }
    }.makeView()
    #expect(root.find("volume") === slider)
    #expect(slider.path == "root/guard/volume")
    #expect(slider.kind.rawValue == "slider")
  }

  @Test func aViewThatCannotGoThereAlertsInsteadOfLooping() throws {
    let recorder = RecordingAlertPresenter()
    var holder: View?
    let root = Window(presenter: recorder) {
      ErrorBoundary(id: "guard") { CustomView { holder! } }
    }
    holder = View.stack(id: "placeholder")
    let view = root.makeView()
    #expect(view.find("placeholder") != nil)
    // Mounting an ancestor into its own subtree is refused and reported.
    let boundary = try #require(view.find("guard"))
    _ = boundary.mount(CustomView { view })
    #expect(boundary.alert?.message.isEmpty == false)
    #expect(view.parent == nil)
  }
}
