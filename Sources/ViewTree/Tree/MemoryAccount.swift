/// Pays for the memory that views and alerts hold on someone's behalf.
///
/// A scripting bridge gives the views a script creates the script's account, so that
/// everything the script causes on the Swift side (titles, texts, values, environment
/// values, queued alerts) counts against the script's own memory limit, wherever the
/// views end up. Views without an account are not charged.
public protocol MemoryAccount: AnyObject, Sendable {
  /// Charges `bytes`; false, charging nothing, if they do not fit. With `overdraft`, a
  /// small allowance beyond the limit applies, for records the owner should still see
  /// (the alert of a memory error).
  func charge(_ bytes: Int, overdraft: Bool) -> Bool
  /// Gives back bytes charged before.
  func release(_ bytes: Int)
}

extension View {
  /// What a view costs before its strings: the object, its arrays and dictionaries.
  public static let baseMemoryCost = 512

  /// Changes what this view is charged for itself (its strings and values) by `delta`
  /// bytes, on ``memoryAccount``. Returns false, changing nothing, if an increase does not
  /// fit. Always true without an account.
  public func adjustCharge(by delta: Int) -> Bool {
    guard let memoryAccount, delta != 0 else { return true }
    if delta > 0 {
      guard memoryAccount.charge(delta, overdraft: false) else { return false }
    } else {
      memoryAccount.release(min(-delta, chargedBytes))
    }
    chargedBytes = max(chargedBytes + delta, 0)
    return true
  }

  /// The value named `name` set on this view itself (not inherited), if any.
  public func localEnvironmentValue(named name: String) -> Any? { namedEnvironment[ByteName(name)] }
}
