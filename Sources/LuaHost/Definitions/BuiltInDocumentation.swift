/// The types and summaries of LuaHost's own Lua API, by `Class.field` (or `Class:method`
/// for a method): what the walk of a live state (``DefinitionWalker``) attaches to the
/// names it finds. The names come from the live API, never from here: a name the walk
/// finds without an entry, or an entry whose name the walk does not find, is reported in
/// the notes, and `LuaDefinitionsTests` requires none.
enum BuiltInDocumentation {
  /// One line about each class.
  static let classes: [String: String] = [
    "ui":
      "The view tree as this script sees it: its root, lookup, and a constructor per kind of view.",
    "View": "A view of the live tree (the same view is always the same userdata).",
    "ViewSpec":
      "The table a view constructor takes, as in ui.button{ id = \"save\", title = \"Save\" }.",
    "ComponentSpec": "The table an app-defined view constructor takes: its own fields, and these.",
    "Environment":
      "A view's environment: reads look up the nearest value among the view and its ancestors; writes set it on the view.",
    "Alert": "An alert a boundary shows (a table; nil fields are left out).",
    "AlertHandler": "What one boundary did with an error on its way to the alert.",
    "UIError": "An error value that carries an alert's title and buttons: error(ui.error{ … }).",
    "UIErrorSpec": "The table ui.error takes.",
    "timer": "Waiting without blocking: sleep in the running coroutine, or run a function later.",
    "Timer": "A handle on a function timer.after will run.",
  ]

  /// The fields of the classes the walk reads from live values.
  static let fields: [String: LuaDoc] = ui.merging(view) { a, _ in a }
    .merging(others) { a, _ in a }

  private static let ui: [String: LuaDoc] = [
    "ui.root": LuaDoc(
      "View", "The top of what this script reaches: a plugin's panel, or the app's window."),
    "ui.find": .function(
      ["id: string"], returns: ["View?"],
      "The first view with this id in ui.root's subtree, depth first (ui.root itself first)."),
    "ui.error": .function(
      ["spec: UIErrorSpec"], returns: ["UIError"],
      "An error value whose alert has this title and these buttons: error(ui.error{ … })."),
    "ui.stack": constructor("A stack: a view that holds others in order."),
    "ui.group": constructor("A group of views."),
    "ui.text": constructor("A text."),
    "ui.button": constructor("A button; tapping it runs on_tap."),
    "ui.text_field": constructor("A text field; setting its value runs on_change."),
    "ui.boundary": constructor(
      "An error boundary: errors below it raise an alert here, unless on_error passes them up."),
    "ui.window": constructor("A window."),
  ]

  private static func constructor(_ summary: String) -> LuaDoc {
    .function(["spec?: ViewSpec|string"], returns: ["View"], summary + " A string is its id.")
  }

  private static let view: [String: LuaDoc] = [
    "View.id": LuaDoc("string", "The view's id, a part of its path; settable (no '/')."),
    "View.kind": LuaDoc("string", "The kind of view: \"button\", \"text_field\", an app's own…"),
    "View.path": LuaDoc(
      "string", "The ids from the top of the tree down to this view, joined by '/'."),
    "View.depth": LuaDoc("integer", "How many views lie above this one."),
    "View.parent": LuaDoc(
      "View?", "The view that holds this one; nil at ui.root and for a detached view."),
    "View.children": LuaDoc(
      "View[]", "The views this one holds, in order (a new list on each read)."),
    "View.title": LuaDoc("string?", "The title (a button's label, a window's title); settable."),
    "View.text": LuaDoc("string?", "The text a text view shows; settable."),
    "View.value": LuaDoc("string", "The value of a text field; setting a new one runs on_change."),
    "View.env": LuaDoc(
      "Environment", "The view's environment: inherited values, and error_handler."),
    "View.alert": LuaDoc("Alert?", "The alert this boundary shows now, if any."),
    "View.alerts": LuaDoc("Alert[]", "The alerts this boundary shows and queues, current first."),
    "View.is_boundary": LuaDoc("boolean", "Whether errors from below stop at this view."),
    "View.on_tap": LuaDoc("(fun(self: View))?", "Runs when the view is tapped; settable."),
    "View.on_change": LuaDoc(
      "(fun(self: View, value: string))?", "Runs when the value changes; settable."),
    "View.on_error": LuaDoc(
      "(fun(err: any, origin: View): any, any)?",
      "Decides about an error from below: nothing or true handles it here, false declines it, false, e passes e up; settable."
    ),
    "View.on_reset": LuaDoc(
      "(fun(boundary: View): View?)?",
      "Runs when the alert's Reset button is chosen, after the children were removed; the views it returns become the new children; settable."
    ),
    "View:find": .function(
      ["id: string"], returns: ["View?"],
      "The first view with this id in this view's subtree, depth first (itself first)."),
    "View:add": .function(
      ["child: View", "position?: integer"], returns: ["View"],
      "Moves child into this view, last or at position (from 1), and returns it. No view goes more than 1000 levels deep."
    ),
    "View:move": .function(
      ["parent: View", "position?: integer"],
      "Moves this view into parent, last or at position. No view goes more than 1000 levels deep."),
    "View:remove": .function(
      returns: ["boolean"],
      "Takes the view out of its parent (cancelling its work); whether it had one."),
    "View:tap": .function(
      returns: ["boolean"], "Runs on_tap; whether an action ran and returned normally."),
    "View:set_value": .function(
      ["value: string"], returns: ["boolean"],
      "Sets the value, running on_change if it changed; false only if on_change raised an error."),
    "View:dismiss": .function(
      returns: ["boolean"],
      "Dismisses the current alert (the next queued one shows); whether one was up."),
  ]

  private static let others: [String: LuaDoc] = [
    "Environment.error_handler": .function(
      ["fn: function", "...: any"], returns: ["boolean", "any ..."],
      "Runs fn(...); an error it raises goes to the view's nearest boundary: true and fn's results, or false."
    ),
    "Alert.title": LuaDoc("string", "The title, such as \"Error\"."),
    "Alert.message": LuaDoc("string", "The error's message."),
    "Alert.dismiss": LuaDoc("string", "The label of the dismiss button, such as \"That sucks\"."),
    "Alert.path": LuaDoc("string", "The path of the view the error came from."),
    "Alert.count": LuaDoc("integer", "How many times the alert was raised while it was up (×N)."),
    "Alert.unhandled": LuaDoc(
      "boolean", "Whether no boundary handled the error (the root's alert)."),
    "Alert.location": LuaDoc("string?", "Where the error happened, such as \"init.lua:12\"."),
    "Alert.traceback": LuaDoc("string?", "The error's traceback."),
    "Alert.failure_reason": LuaDoc(
      "string?", "Why it happened: a Swift LocalizedError's failureReason."),
    "Alert.recovery_suggestion": LuaDoc(
      "string?", "What the user can do: a Swift LocalizedError's recoverySuggestion."),
    "Alert.actions": LuaDoc("string[]", "The button labels in order, the dismiss button last."),
    "Alert.chain": LuaDoc(
      "string", "What each boundary did: \"inner declined · outer presented\"."),
    "Alert.handlers": LuaDoc("AlertHandler[]", "The boundaries the error passed, innermost first."),
    "Alert:choose": .function(
      ["button: string|integer"], returns: ["string"],
      "Presses a button by label or number while the alert is up: \"dismissed\", \"recovered\", \"not_recovered\", \"retried\" or \"reset\"."
    ),
    "AlertHandler.boundary": LuaDoc("string", "The boundary's id."),
    "AlertHandler.path": LuaDoc("string", "The boundary's path."),
    "AlertHandler.decision": LuaDoc("string", "What it did: \"presented\", \"declined\"…"),
    "UIError.message": LuaDoc("string", "The alert's message."),
    "UIError.title": LuaDoc("string?", "The alert's title, in place of the boundary's."),
    "timer.sleep": .function(
      ["seconds: number"], "Suspends the calling coroutine for that long, blocking nothing else."),
    "timer.after": .function(
      ["seconds: number", "fn: fun()"], returns: ["Timer"],
      "Runs fn later as an action of the view whose code scheduled it; removing that view cancels it."
    ),
    "Timer:cancel": .function(
      returns: ["boolean"],
      "Cancels the timer; whether it was still pending (a callback that began runs on)."),
  ]

  /// The fields of the constructors' tables: read by the constructors' Swift code, so
  /// written here (these are the one part of the definitions the walk cannot see).
  static let specs: [String: [String: LuaDoc]] = [
    "ViewSpec": [
      "id": LuaDoc("string?", "The view's id (no '/'); by default its kind."),
      "title": LuaDoc("string?", "The title (a button's label); a boundary's alert title."),
      "text": LuaDoc("string?", "The text."),
      "value": LuaDoc("string?", "The value of a text field."),
      "children": LuaDoc("View[]?", "Views to add, in order."),
      "on_tap": LuaDoc("(fun(self: View))?", "Runs when the view is tapped."),
      "on_change": LuaDoc("(fun(self: View, value: string))?", "Runs when the value changes."),
      "on_error": LuaDoc(
        "(fun(err: any, origin: View): any, any)?",
        "Makes the view a boundary that decides about errors from below."),
      "on_reset": LuaDoc(
        "(fun(boundary: View): View?)?", "Makes the view a boundary whose alerts offer Reset."),
      "dismiss": LuaDoc("string?", "A boundary's dismiss button label."),
      "retry": LuaDoc("boolean?", "Whether a boundary's alerts offer Try again."),
      "retry_label": LuaDoc("string?", "The label of Try again."),
      "reset_label": LuaDoc("string?", "The label of Reset."),
      "reset_keys": LuaDoc(
        "string[]?", "Environment keys whose change resets the boundary while it shows an alert."),
    ],
    "ComponentSpec": [
      "id": LuaDoc("string?", "The view's id (no '/')."),
      "children": LuaDoc("View[]?", "Views to add, in order."),
      "on_tap": LuaDoc("(fun(self: View))?", "Runs when the view is tapped."),
      "on_error": LuaDoc(
        "(fun(err: any, origin: View): any, any)?",
        "Makes the view a boundary that decides about errors from below."),
      "on_reset": LuaDoc(
        "(fun(boundary: View): View?)?", "Makes the view a boundary whose alerts offer Reset."),
    ],
    "UIErrorSpec": [
      "message": LuaDoc("string", "The alert's message."),
      "title": LuaDoc("string?", "The alert's title."),
      "actions": LuaDoc("{ [1]: string, [2]: fun() }[]?", "Buttons: { label, function } pairs."),
    ],
  ]
}
