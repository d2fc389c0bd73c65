/// The errors the ViewTree module raises.
public enum ViewTreeError: Error {
  /// Adding or moving a view would make it its own ancestor.
  ///
  /// `child` is the path of the view being placed, `parent` that of the intended parent.
  case wouldCreateCycle(child: String, parent: String)

  /// An insertion index is outside `0...count`.
  case indexOutOfRange(index: Int, count: Int)

  /// A boundary's ``BoundaryConfiguration/onError`` filter threw `failure` while
  /// deciding about `original`. It goes to the next boundary up.
  ///
  /// `boundary` is the path of the boundary whose filter failed.
  case handlerFailed(boundary: String, original: any Error, failure: any Error)
}

// MARK: - Descriptions

extension ViewTreeError {
  /// The longest part of another error's message that a description repeats.
  static let quotedMessageLimit = 2_000

  static func clip(_ text: String) -> String {
    guard text.utf8.count > quotedMessageLimit else { return text }
    return String(text.prefix(quotedMessageLimit)) + "…"
  }

  /// The error a chain of failed handlers started from.
  var rootOriginal: (any Error)? {
    guard case .handlerFailed(_, let original, _) = self else { return nil }
    return (original as? ViewTreeError)?.rootOriginal ?? original
  }
}

extension ViewTreeError: CustomStringConvertible {
  /// A one-line explanation.
  public var description: String {
    switch self {
    case .wouldCreateCycle(let child, let parent):
      return "cannot move \(child) under \(parent): it would become its own ancestor"
    case .indexOutOfRange(let index, let count):
      return "index \(index) is out of range 0...\(count)"
    case .handlerFailed(let boundary, let original, let failure):
      // Clipped: a chain of failing handlers, each re-raising what it got, would otherwise
      // build a message that grows with every level (quadratic work in all).
      return "the error handler at \(boundary) failed: \(Self.clip(Alert.message(for: failure)))"
        + " (while handling: \(Self.clip(Alert.message(for: original))))"
    }
  }
}

extension ViewTreeError: AlertDetailing {
  /// Same as ``description``.
  public var alertMessage: String { description }

  /// For a failed handler: where the failure happened, else where the original error did.
  public var sourceLocation: String? {
    guard case .handlerFailed(_, let original, let failure) = self else { return nil }
    return Alert.sourceLocation(of: failure) ?? Alert.sourceLocation(of: original)
  }

  /// For a failed handler: the failure's traceback, then the original error's.
  public var tracebackText: String? {
    guard case .handlerFailed(_, let original, let failure) = self else { return nil }
    let parts = [Alert.traceback(of: failure), Alert.traceback(of: original)].compactMap { $0 }
    return parts.isEmpty ? nil : parts.joined(separator: "\nwhile handling:\n")
  }
}
