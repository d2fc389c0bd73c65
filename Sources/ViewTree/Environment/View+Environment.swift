// MARK: - Environment

extension View {
  /// The environment as this view sees it, resolved live on every read.
  public var environment: EnvironmentValues {
    EnvironmentValues(view: self)
  }

  /// Sets `value` for `key` on this view, for it and all its descendants.
  public func setEnvironment<K: EnvironmentKey>(_ key: K.Type, to value: K.Value) {
    environment[key] = value
  }

  /// Sets the value at `keyPath`, such as `\.alertPresenter`, on this view.
  public func setEnvironment<Value>(
    _ keyPath: ReferenceWritableKeyPath<EnvironmentValues, Value>, to value: Value
  ) {
    environment[keyPath: keyPath] = value
  }

  /// Removes this view's own value for `key`, so the inherited value shows again.
  public func removeEnvironment<K: EnvironmentKey>(_ key: K.Type) {
    typedEnvironment.removeValue(forKey: ObjectIdentifier(key))
  }

  /// Sets the named value `name` on this view, or removes it if `value` is `nil`.
  public func setEnvironment(named name: String, to value: Any?) {
    environment[named: name] = value
  }

  /// The names of the values set on this view itself, sorted.
  public var localEnvironmentNames: [String] {
    namedEnvironment.keys.map(\.text).sorted()
  }
}
