// The tree's lock (`View.treeLock`) is a `ReentrantLock` from the package's `Locks`
// module; importing ViewTree brings it along.
@_exported import Locks
