@testable import ConsentServer
import Synchronization
import Testing

/// The CPU of consentd's expensive builds (issue 24: a page view's TCData and notice document, a
/// demo notice) bounded by one gate: a slot count, turns by address, caps per address and in all.
@Suite("The CPU work gate")
struct CPUWorkGateTests {
    /// The addresses in the order their builds ran.
    actor Order {
        var addresses: [String] = []
        func append(_ address: String) { addresses.append(address) }
    }

    /// Lets a started waiter reach the gate's queue (it queues asynchronously).
    static func settle() async throws {
        try await Task.sleep(for: .milliseconds(100))
    }

    @Test("cpu: at most limit builds run at once; the rest wait and run when a slot frees")
    func slotsBoundTheBuildsRunning() async throws {
        let gate = CPUWorkGate(limit: 1, perAddress: 4, queueLimit: 8)
        try await gate.acquire(address: "a")
        let started = Mutex(false)
        let waiting = Task {
            try await gate.acquire(address: "b")
            started.withLock { $0 = true }
            gate.release(address: "b")
        }
        try await Self.settle()
        #expect(!started.withLock { $0 } && gate.running == 1)
        gate.release(address: "a")
        try await waiting.value
        #expect(started.withLock { $0 } && gate.running == 0)
    }

    @Test("cpu: a freed slot goes to the next address in turn, not to the address that sent the most")
    func slotsGoToAddressesInTurn() async throws {
        let gate = CPUWorkGate(limit: 1, perAddress: 4, queueLimit: 8)
        try await gate.acquire(address: "flood")
        let order = Order()
        var tasks: [Task<Void, any Error>] = []
        for address in ["flood", "flood", "flood", "visitor"] {
            tasks.append(Task { [gate, order] in
                try await gate.acquire(address: address)
                await order.append(address)
                gate.release(address: address)
            })
            try await Self.settle()
        }
        gate.release(address: "flood")
        for task in tasks { try await task.value }
        #expect(await order.addresses.prefix(2) == ["flood", "visitor"], "the visitor waits behind one of the flood's builds, not three")
    }

    @Test("cpu: one address past its share is refused with 429, and the queue past its length with 503")
    func capsPerAddressAndInAll() async throws {
        let gate = CPUWorkGate(limit: 1, perAddress: 2, queueLimit: 2)
        try await gate.acquire(address: "a")
        let second = Task { try await gate.acquire(address: "a"); gate.release(address: "a") }
        try await Self.settle()
        do {
            try await gate.acquire(address: "a")
            Issue.record("a third build of one address was let in past its share")
        } catch {
            #expect(error.status == .tooManyRequests && error.retryAfter == 1)
        }
        let third = Task { try await gate.acquire(address: "b"); gate.release(address: "b") }
        try await Self.settle()
        do {
            try await gate.acquire(address: "c")
            Issue.record("a third waiter was queued past the queue's length")
        } catch {
            #expect(error.status == .serviceUnavailable && error.code == "server_busy")
        }
        gate.release(address: "a")
        try await second.value
        try await third.value
        #expect(gate.running == 0)
    }
}
