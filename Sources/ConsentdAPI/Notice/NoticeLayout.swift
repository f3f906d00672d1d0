/// Where the notice sits on the screen and how much of the app or site stays visible behind it.
///
/// In every layout the notice is modal: what is behind it cannot be reached until the user
/// answers (TCF policy Appendix B, C(a)). The page puts the layout it resolved on its root element
/// (`data-layout`), so that `notice-layout.css` draws it (`docs/notice-protocol.md`).
public enum NoticeLayout: String, Sendable, Equatable, Codable, CaseIterable {
    /// A bottom sheet on screens narrower than 600 CSS pixels, a centred modal on wider ones.
    case auto
    /// A centred card over the dimmed app or site.
    case modal
    /// A band along the bottom edge over the dimmed app or site, as wide as the screen.
    case banner
    /// A sheet rising from the bottom edge over the dimmed app or site, at most 90% of its height.
    case sheet
    /// The whole screen; nothing behind it shows.
    case fullscreen
}
