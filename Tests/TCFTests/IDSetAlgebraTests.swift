import Testing
@testable import TCF

@Suite("IDSet algebra")
struct IDSetAlgebraTests {
    /// Random sets of every size class: empty, inline (ids below 64), large.
    static func randomSets(count: Int, seed: UInt64) -> [Set<Int>] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let limit = [1, 63, 200, 5000][index % 4]
            let size = Int(generator.next() % 40)
            return Set((0..<size).map { _ in Int(generator.next() % UInt64(limit)) + 1 })
        }
    }

    @Test("union, intersection, subtraction and subset agree with Swift's Set on random sets")
    func agreesWithSet() {
        let sets = Self.randomSets(count: 120, seed: 42)
        for (a, b) in zip(sets, sets.dropFirst()) {
            let (x, y) = (IDSet(a), IDSet(b))
            #expect(x.union(y) == IDSet(a.union(b)))
            #expect(x.intersection(y) == IDSet(a.intersection(b)))
            #expect(x.subtracting(y) == IDSet(a.subtracting(b)))
            #expect(x.isSubset(of: y) == a.isSubset(of: b))
        }
    }

    @Test("inserting and removing give canonical sets: removing the only large id equals a small set")
    func insertAndRemove() {
        let set: IDSet = [1, 5, 700]
        #expect(set.removing(700) == [1, 5])
        #expect(set.removing(700).hashValue == IDSet([1, 5]).hashValue)
        #expect(set.inserting(64).sorted == [1, 5, 64, 700])
        #expect(set.removing(2) == set)
        #expect(IDSet(3...6).sorted == [3, 4, 5, 6])
        #expect(IDSet(0...2).sorted == [1, 2])
    }
}
