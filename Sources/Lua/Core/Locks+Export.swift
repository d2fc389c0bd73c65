// A state's lock (`LuaState.lock`) is a `ReentrantLock` from the package's `Locks` module;
// importing Lua brings it along.
@_exported import Locks
