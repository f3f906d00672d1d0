import ConsentKit

extension ConsentFlow {
    /// A flow asking the system's App Tracking Transparency (``SystemTrackingAuthorization``).
    ///
    /// ```swift
    /// import ConsentKit
    /// import ConsentKitAppTracking
    ///
    /// let result = await ConsentFlow(manager: manager, policy: .trackingFirst, notice: presenter).run()
    /// ```
    public init(manager: ConsentManager, policy: ConsentFlowPolicy, notice: any NoticePresenting) {
        self.init(manager: manager, policy: policy, tracking: SystemTrackingAuthorization(), notice: notice)
    }
}
