@testable import ConsentServer
import Synchronization
import Testing

/// The group committer: concurrent submissions share commits; a submission of several items is
/// never split.
@Suite("Group committer")
struct GroupCommitterTests {
    /// The commits a committer made, each its items in order.
    private final class Recorder: Sendable {
        let commits = Mutex<[[Int]]>([])
    }

    /// A committer whose commits take a moment (so submissions queue behind them) and are recorded.
    private static func recording(maxBatch: Int) -> (GroupCommitter<Int, Int>, Recorder) {
        let recorder = Recorder()
        let committer = GroupCommitter<Int, Int>(maxBatch: maxBatch) { items in
            recorder.commits.withLock { $0.append(items) }
            try await Task.sleep(for: .milliseconds(20))
            return items.map { .success($0 * 10) }
        }
        return (committer, recorder)
    }

    @Test("a submission of several items goes into one commit, in its order, and commits hold whole submissions up to maxBatch")
    func submissionsAreNeverSplit() async throws {
        let (committer, recorder) = Self.recording(maxBatch: 50)
        let groups: [[Int]] = (0..<12).map { group in Array(group * 100..<group * 100 + [1, 7, 30, 49, 50, 70][group % 6]) }
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for group in groups {
                tasks.addTask {
                    let answers = try await committer.submit(contentsOf: group)
                    #expect(try answers.map { try $0.get() } == group.map { $0 * 10 })
                }
                tasks.addTask {
                    let answer = try await committer.submit(group[0] + 1_000_000)
                    #expect(answer == (group[0] + 1_000_000) * 10)
                }
            }
            try await tasks.waitForAll()
        }
        let recorded = recorder.commits.withLock { $0 }
        #expect(recorded.flatMap { $0 }.count == groups.map(\.count).reduce(0, +) + groups.count)
        for group in groups {
            let holding = recorded.filter { $0.contains(group[0]) }
            #expect(holding.count == 1)
            let commit = try #require(holding.first)
            let start = try #require(commit.firstIndex(of: group[0]))
            #expect(Array(commit[start..<min(commit.count, start + group.count)]) == group)
        }
        // Only a submission larger than maxBatch makes a larger commit, and it commits alone.
        for commit in recorded where commit.count > 50 {
            #expect(groups.contains(commit))
        }
    }

    @Test("each item is answered on its own; a commit that throws fails every submission in it")
    func answersAndFailures() async throws {
        struct Broken: Error {}
        let committer = GroupCommitter<Int, Int> { items in
            if items.contains(-1) { throw Broken() }
            return items.map { $0 % 2 == 0 ? .success($0) : .failure(Broken()) }
        }
        let answers = try await committer.submit(contentsOf: [2, 3, 4])
        #expect(answers.map { try? $0.get() } == [2, nil, 4])
        await #expect(throws: Broken.self) { try await committer.submit(contentsOf: [2, -1]) }
        #expect(try await committer.submit(contentsOf: []).isEmpty)
        #expect(try await committer.submit(8) == 8)
    }
}
