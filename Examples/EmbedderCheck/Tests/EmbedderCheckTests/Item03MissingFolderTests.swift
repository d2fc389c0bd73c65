import LuaHost
import Testing
import ViewTree

/// Item 3: loading plugins from a folder that is not there is an error, not an empty list.
@Suite(.timeLimit(.minutes(10))) struct Item03MissingFolderTests {
  @Test func aMissingFolderIsOneFailure() throws {
    let host = PluginHost(container: View.stack(id: "plugins"), output: { _ in })
    let results = host.loadAll(in: "/nonexistent/plugins")
    guard results.count == 1, case .failure(.unreadableFolder(let path, _)) = results[0] else {
      Issue.record("\(results)")
      return
    }
    #expect(path == "/nonexistent/plugins")
  }
}
