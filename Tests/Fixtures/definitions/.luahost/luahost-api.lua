---@meta _
-- The globals a LuaHost plugin sees, for the Lua language server (LuaLS).
-- Generated from the live LuaHost API by luahost definitions (luahost 0.1.0); run it again instead of editing.

---Waiting without blocking: sleep in the running coroutine, or run a function later.
---@class timer
timer = {}

---Runs fn later as an action of the view whose code scheduled it; removing that view cancels it.
---@param seconds number
---@param fn fun()
---@return Timer
function timer.after(seconds, fn) end

---Suspends the calling coroutine for that long, blocking nothing else.
---@param seconds number
function timer.sleep(seconds) end

---The view tree as this script sees it: its root, lookup, and a constructor per kind of view.
---@class ui
---@field root View The top of what this script reaches: a plugin's panel, or the app's window.
ui = {}

---An error boundary: errors below it raise an alert here, unless on_error passes them up. A string is its id.
---@param spec? ViewSpec|string
---@return View
function ui.boundary(spec) end

---A button; tapping it runs on_tap. A string is its id.
---@param spec? ViewSpec|string
---@return View
function ui.button(spec) end

---An error value whose alert has this title and these buttons: error(ui.error{ … }).
---@param spec UIErrorSpec
---@return UIError
function ui.error(spec) end

---The first view with this id in ui.root's subtree, depth first (ui.root itself first).
---@param id string
---@return View?
function ui.find(id) end

---A group of views. A string is its id.
---@param spec? ViewSpec|string
---@return View
function ui.group(spec) end

---A stack: a view that holds others in order. A string is its id.
---@param spec? ViewSpec|string
---@return View
function ui.stack(spec) end

---A text. A string is its id.
---@param spec? ViewSpec|string
---@return View
function ui.text(spec) end

---A text field; setting its value runs on_change. A string is its id.
---@param spec? ViewSpec|string
---@return View
function ui.text_field(spec) end

---A window. A string is its id.
---@param spec? ViewSpec|string
---@return View
function ui.window(spec) end

---A view of the live tree (the same view is always the same userdata).
---@class View
---@field alert Alert? The alert this boundary shows now, if any.
---@field alerts Alert[] The alerts this boundary shows and queues, current first.
---@field children View[] The views this one holds, in order (a new list on each read).
---@field depth integer How many views lie above this one.
---@field env Environment The view's environment: inherited values, and error_handler.
---@field id string The view's id, a part of its path; settable (no '/').
---@field is_boundary boolean Whether errors from below stop at this view.
---@field kind string The kind of view: "button", "text_field", an app's own…
---@field on_change (fun(self: View, value: string))? Runs when the value changes; settable.
---@field on_error (fun(err: any, origin: View): any, any)? Decides about an error from below: nothing or true handles it here, false declines it, false, e passes e up; settable.
---@field on_reset (fun(boundary: View): View?)? Runs when the alert's Reset button is chosen, after the children were removed; the views it returns become the new children; settable.
---@field on_tap (fun(self: View))? Runs when the view is tapped; settable.
---@field parent View? The view that holds this one; nil at ui.root and for a detached view.
---@field path string The ids from the top of the tree down to this view, joined by '/'.
---@field text string? The text a text view shows; settable.
---@field title string? The title (a button's label, a window's title); settable.
---@field value string The value of a text field; setting a new one runs on_change.
local View = {}

---Moves child into this view, last or at position (from 1), and returns it. No view goes more than 1000 levels deep.
---@param child View
---@param position? integer
---@return View
function View:add(child, position) end

---Dismisses the current alert (the next queued one shows); whether one was up.
---@return boolean
function View:dismiss() end

---The first view with this id in this view's subtree, depth first (itself first).
---@param id string
---@return View?
function View:find(id) end

---Moves this view into parent, last or at position. No view goes more than 1000 levels deep.
---@param parent View
---@param position? integer
function View:move(parent, position) end

---Takes the view out of its parent (cancelling its work); whether it had one.
---@return boolean
function View:remove() end

---Sets the value, running on_change if it changed; false only if on_change raised an error.
---@param value string
---@return boolean
function View:set_value(value) end

---Runs on_tap; whether an action ran and returned normally.
---@return boolean
function View:tap() end

---A view's environment: reads look up the nearest value among the view and its ancestors; writes set it on the view.
---@class Environment
---@field [string] any
local Environment = {}

---Runs fn(...); an error it raises goes to the view's nearest boundary: true and fn's results, or false.
---@param fn function
---@param ... any
---@return boolean
---@return any ...
function Environment.error_handler(fn, ...) end

---An error value that carries an alert's title and buttons: error(ui.error{ … }).
---@class UIError
---@field message string The alert's message.
---@field title string? The alert's title, in place of the boundary's.
local UIError = {}

---A handle on a function timer.after will run.
---@class Timer
local Timer = {}

---Cancels the timer; whether it was still pending (a callback that began runs on).
---@return boolean
function Timer:cancel() end

---An alert a boundary shows (a table; nil fields are left out).
---@class Alert
---@field actions string[] The button labels in order, the dismiss button last.
---@field chain string What each boundary did: "inner declined · outer presented".
---@field count integer How many times the alert was raised while it was up (×N).
---@field dismiss string The label of the dismiss button, such as "That sucks".
---@field failure_reason string? Why it happened: a Swift LocalizedError's failureReason.
---@field handlers AlertHandler[] The boundaries the error passed, innermost first.
---@field location string? Where the error happened, such as "init.lua:12".
---@field message string The error's message.
---@field path string The path of the view the error came from.
---@field recovery_suggestion string? What the user can do: a Swift LocalizedError's recoverySuggestion.
---@field title string The title, such as "Error".
---@field traceback string? The error's traceback.
---@field unhandled boolean Whether no boundary handled the error (the root's alert).
local Alert = {}

---Presses a button by label or number while the alert is up: "dismissed", "recovered", "not_recovered", "retried" or "reset".
---@param button string|integer
---@return string
function Alert:choose(button) end

---What one boundary did with an error on its way to the alert.
---@class AlertHandler
---@field boundary string The boundary's id.
---@field decision string What it did: "presented", "declined"…
---@field path string The boundary's path.
local AlertHandler = {}

---The table a view constructor takes, as in ui.button{ id = "save", title = "Save" }.
---@class ViewSpec
---@field children View[]? Views to add, in order.
---@field dismiss string? A boundary's dismiss button label.
---@field id string? The view's id (no '/'); by default its kind.
---@field on_change (fun(self: View, value: string))? Runs when the value changes.
---@field on_error (fun(err: any, origin: View): any, any)? Makes the view a boundary that decides about errors from below.
---@field on_reset (fun(boundary: View): View?)? Makes the view a boundary whose alerts offer Reset.
---@field on_tap (fun(self: View))? Runs when the view is tapped.
---@field reset_keys string[]? Environment keys whose change resets the boundary while it shows an alert.
---@field reset_label string? The label of Reset.
---@field retry boolean? Whether a boundary's alerts offer Try again.
---@field retry_label string? The label of Try again.
---@field text string? The text.
---@field title string? The title (a button's label); a boundary's alert title.
---@field value string? The value of a text field.
local ViewSpec = {}

---The table an app-defined view constructor takes: its own fields, and these.
---@class ComponentSpec
---@field children View[]? Views to add, in order.
---@field id string? The view's id (no '/').
---@field on_error (fun(err: any, origin: View): any, any)? Makes the view a boundary that decides about errors from below.
---@field on_reset (fun(boundary: View): View?)? Makes the view a boundary whose alerts offer Reset.
---@field on_tap (fun(self: View))? Runs when the view is tapped.
local ComponentSpec = {}

---The table ui.error takes.
---@class UIErrorSpec
---@field actions { [1]: string, [2]: fun() }[]? Buttons: { label, function } pairs.
---@field message string The alert's message.
---@field title string? The alert's title.
local UIErrorSpec = {}
