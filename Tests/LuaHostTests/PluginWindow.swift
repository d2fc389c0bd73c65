import ViewTree

/// A window `root` holding a `plugins` stack, for a plugin host's panels, and the presenter
/// that records the window's alerts.
func pluginWindow() throws -> (View, View, RecordingAlertPresenter) {
  let root = View.window(id: "root")
  let container = View.stack(id: "plugins")
  let recorder = RecordingAlertPresenter()
  try root.add(container)
  root.environment.alertPresenter = recorder
  return (root, container, recorder)
}
