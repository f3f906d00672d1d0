import Foundation
import NIOCore
import Synchronization

/// Every open connection of every listener consentd runs, by client address: it refuses an
/// address more than its share of connections (``ServerSettings/maxConnectionsPerAddress``,
/// counted over all listeners), and when a listener reaches its cap it closes that listener's
/// connection that has been idle longest, so a new client is served instead of waiting in the
/// backlog behind idle ones.
final class ConnectionTable: Sendable {
    /// A connection's entry, from ``admit(_:listener:cap:)`` to its close.
    struct Ticket: Hashable, Sendable {
        fileprivate let id: Int
    }

    private struct Entry {
        var address: String?
        var listener: String
        /// When the connection last became idle (no request under way); nil while busy.
        var idleSince: UInt64?
        var channel: any Channel
    }

    private struct State {
        var next = 0
        var entries: [Int: Entry] = [:]
        var perAddress: [String: Int] = [:]
        var perListener: [String: Int] = [:]
    }

    private let perAddressCap: Int
    private let state = Mutex(State())

    /// A table allowing each address `perAddressCap` connections (0: no cap).
    init(perAddressCap: Int) {
        self.perAddressCap = perAddressCap
    }

    /// Enters a new connection of `listener`, which holds at most `cap` at once. Nil when its
    /// address already holds its share (the caller closes it). When the listener is now full, its
    /// longest-idle connection is closed to make room for the next.
    func admit(_ channel: any Channel, listener: String, cap: Int) -> Ticket? {
        let address = channel.remoteAddress?.ipAddress
        let (ticket, evicted): (Ticket?, (any Channel)?) = state.withLock { state in
            if let address, perAddressCap > 0, state.perAddress[address, default: 0] >= perAddressCap { return (nil, nil) }
            let id = state.next
            state.next += 1
            state.entries[id] = Entry(address: address, listener: listener, idleSince: DispatchTime.now().uptimeNanoseconds, channel: channel)
            if let address { state.perAddress[address, default: 0] += 1 }
            state.perListener[listener, default: 0] += 1
            guard state.perListener[listener, default: 0] >= cap,
                  let oldest = state.entries
                      .compactMap({ key, entry in entry.idleSince.map { (key: key, since: $0, channel: entry.channel, listener: entry.listener) } })
                      .filter({ $0.key != id && $0.listener == listener })
                      .min(by: { $0.since < $1.since })
            else { return (Ticket(id: id), nil) }
            // Out of the table at once, so the next admission does not pick it again while it closes.
            Self.remove(oldest.key, from: &state)
            return (Ticket(id: id), oldest.channel)
        }
        evicted?.close(promise: nil)
        return ticket
    }

    /// Records whether the connection has no request under way.
    func setIdle(_ ticket: Ticket, _ idle: Bool) {
        state.withLock { state in
            state.entries[ticket.id]?.idleSince = idle ? DispatchTime.now().uptimeNanoseconds : nil
        }
    }

    /// Removes a closed connection.
    func remove(_ ticket: Ticket) {
        state.withLock { Self.remove(ticket.id, from: &$0) }
    }

    private static func remove(_ id: Int, from state: inout State) {
        guard let entry = state.entries.removeValue(forKey: id) else { return }
        if let address = entry.address {
            state.perAddress[address, default: 1] -= 1
            if state.perAddress[address] == 0 { state.perAddress[address] = nil }
        }
        state.perListener[entry.listener, default: 1] -= 1
    }

    /// How many connections `address` holds now.
    func count(address: String) -> Int {
        state.withLock { $0.perAddress[address, default: 0] }
    }
}
