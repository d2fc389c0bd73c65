import Testing
import ViewTree

// The seed example, written as close to SwiftUI as the API allows.

struct ContentView: Component {
  var body: some Component {
    ErrorHandlingView {
      PretendThisViewIsDeeplyBuriedInApp()
    }
  }
}

struct PretendThisViewIsDeeplyBuriedInApp: Component {
  @Environment(\.errorHandler) var errorHandler

  var body: some Component {
    Button("Crash") { _ in
      errorHandler {
        throw MyError()
      }
    }
  }
}

@Suite(.timeLimit(.minutes(30))) struct SeedExampleTests {
  @Test func tappingCrashPresentsTheSeedAlertAtTheNearestBoundary() throws {
    let presenter = RecordingAlertPresenter()
    let root = Window(presenter: presenter) { ContentView() }.makeView()
    let crash = try #require(root.find(where: { $0.title == "Crash" }))
    #expect(crash.path == "root/boundary/button")

    #expect(crash.tap())  // the action itself returned: errorHandler caught the error

    let boundary = try #require(root.find("boundary"))
    let alert = try #require(boundary.alert)
    #expect(alert.title == "Error")
    #expect(alert.message == "MyError()")
    #expect(alert.dismissLabel == "That sucks")
    // The component's handler was read where it is mounted, but the button's action uses
    // it: the alert names the button, as SwiftUI's per-view environment would.
    #expect(alert.path == "root/boundary/button")
    #expect(root.alert == nil)
    #expect(presenter.presented.count == 1)
  }

  @Test func theSameErrorThrownStraightFromTheButtonIsAlsoCaught() throws {
    let root = Window {
      ErrorHandlingView {
        Stack(id: "deep") { Button("Crash", id: "crash") { _ in throw MyError() } }
      }
    }.makeView()
    try #require(root.find("crash")).tap()
    #expect(root.find("boundary")?.alert?.path == "root/boundary/deep/crash")
  }

  @Test func theSeedWithoutABoundaryReachesTheRootDefault() throws {
    let root = Window { PretendThisViewIsDeeplyBuriedInApp() }.makeView()
    try #require(root.find("button")).tap()
    #expect(root.alert?.title == "Unhandled error")
    #expect(root.alert?.message == "MyError()")
  }
}
