/// A weak reference kept in a constant, for closures that run on hot paths.
///
/// A `[weak x]` capture is a mutable box, and every read of it is an access that the
/// runtime checks for exclusivity (`swift_beginAccess`, about 80 instructions under
/// callgrind). A closure that captures this struct reads an immutable value instead. The
/// tree's bridge closures read their tree on every call from Lua.
struct WeakReference<Object: AnyObject> {
  weak var object: Object?
  init(_ object: Object) { self.object = object }
}
