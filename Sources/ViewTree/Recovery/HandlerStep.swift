/// What one boundary did with an error on its way to the alert: one link of the handler
/// chain an alert shows, as in "inner declined · outer presented".
public struct HandlerStep: Sendable, Equatable, CustomStringConvertible {
  /// What a boundary did.
  public enum Decision: String, Sendable {
    /// It presented the error (its filter handled it, or it has none).
    case presented
    /// Its filter presented a replacement error.
    case transformed
    /// Its filter passed the error up unchanged.
    case declined
    /// Its filter passed a replacement error up.
    case escalated
    /// Its filter threw; the failure went up with the original error.
    case failed
    /// Its filter was already running on this thread (the error came from it), so the
    /// error went past it.
    case skipped
    /// No boundary presented it: the root's default handler did ("Unhandled error").
    case unhandled
  }

  /// The boundary's id (the root's, for ``Decision/unhandled``).
  public let boundary: String

  /// The boundary's path, such as `root/plugins/stats`.
  public let path: String

  /// What it did.
  public let decision: Decision

  /// `outer presented`.
  public var description: String { "\(boundary) \(decision.rawValue)" }
}

extension Array where Element == HandlerStep {
  /// The chain as one line: `inner declined · outer presented`.
  public var chainDescription: String { map(\.description).joined(separator: " · ") }
}
