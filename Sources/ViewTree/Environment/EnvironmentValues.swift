/// The environment as one view sees it: a live window onto the values set on
/// the view and its ancestors.
///
/// Reads walk up the parent chain at the moment of reading and take the value
/// set nearest to the view, or the key's default. Nothing is cached, so moving
/// or removing a view changes what it sees at once. Writes set the value on
/// the view itself, for it and all its descendants.
public struct EnvironmentValues {
  /// The view whose environment this is; `nil` gives every key its default.
  public let view: View?

  /// Creates the environment as seen by `view`.
  public init(view: View?) {
    self.view = view
  }

  /// The value for `key` set nearest to the view, or `key`'s default.
  ///
  /// Setting stores the value on the view. An optional key may be set to `nil`
  /// to hide an ancestor's value; ``View/removeEnvironment(_:)`` removes it.
  public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
    get {
      let id = ObjectIdentifier(key)
      var node = view
      while let current = node {
        if !current.typedEnvironment.isEmpty, let stored = current.typedEnvironment[id],
          let value = stored as? K.Value
        {
          return value
        }
        node = current.parent
      }
      return K.defaultValue
    }
    nonmutating set {
      if key == ErrorLogKey.self { ErrorLogKey.wasEverSet.store(true, ordering: .relaxed) }
      view?.typedEnvironment.updateValue(newValue, forKey: ObjectIdentifier(key))
    }
  }

  /// The dynamically named value set nearest to the view, or `nil`.
  ///
  /// Setting stores the value on the view; setting `nil` removes the view's own
  /// value, so an ancestor's value shows again. Named values are separate from
  /// typed keys; they serve scripting bridges (`root.env.theme = "dark"`).
  public subscript(named name: String) -> Any? {
    get {
      let key = ByteName(name)
      var node = view
      while let current = node {
        if !current.namedEnvironment.isEmpty, let value = current.namedEnvironment[key] {
          return value
        }
        node = current.parent
      }
      return nil
    }
    nonmutating set {
      let watched = View.boundariesWithResetKeys.load(ordering: .relaxed) > 0
      let old = watched ? self[named: name] : nil
      if let newValue {
        view?.namedEnvironment[ByteName(name)] = newValue
      } else {
        view?.namedEnvironment.removeValue(forKey: ByteName(name))
      }
      // Boundaries below that reset on this name do, unless the value stayed the same.
      if watched, !View.isSameValue(old, self[named: name]) { view?.namedValueChanged(name) }
    }
  }

  /// The names of all named values the view sees, sorted.
  public var names: [String] {
    var seen = Set<ByteName>()
    var node = view
    while let current = node {
      seen.formUnion(current.namedEnvironment.keys)
      node = current.parent
    }
    return seen.map(\.text).sorted()
  }

  /// Whether the view or one of its ancestors sets `key`.
  public func contains<K: EnvironmentKey>(_ key: K.Type) -> Bool {
    let id = ObjectIdentifier(key)
    var node = view
    while let current = node {
      if current.typedEnvironment[id] != nil { return true }
      node = current.parent
    }
    return false
  }
}
