/// What an error boundary's ``BoundaryConfiguration/onError`` filter decides to do with an error.
public enum BoundaryDecision: Sendable {
  /// Present the error at this boundary.
  case handle
  /// Present the error at this boundary, with `actions` before its own buttons.
  case offer([AlertAction])
  /// Pass the error unchanged to the next boundary up.
  case decline
  /// Present `into` at this boundary instead of the original error.
  case transform(into: any Error)
  /// Pass `into` instead of the original error to the next boundary up (React's rethrow).
  case escalate(any Error)
}
