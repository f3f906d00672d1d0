extension IDSet {
    /// The ids of `ids` that a set can hold (`1...IDSet.maxID`); the others are left out. For
    /// ids from outside (a server's answer, a hand-built list), where ``init(_:)``'s
    /// precondition must not be the check.
    public init<S: Sequence>(validIds ids: S) where S.Element == Int {
        var builder = Builder()
        for id in ids where id >= 1 && id <= IDSet.maxID { builder.insert(id) }
        self = builder.build()
    }
}
