import Foundation

/// The notice's brand: colours for a light and a dark appearance, corner radius, font stack and
/// button style.
///
/// The TCF policy (Appendix B, C(g)) wants the two primary buttons ("Accept all", "Reject all")
/// legible and equal: both always take the same ``ButtonStyle``, and ``validate()`` refuses a
/// theme whose button text has less than 5:1 contrast with the button, or any text (body, muted,
/// links) less than 4.5:1 (WCAG AA) with the background or a card, in either appearance.
public struct NoticeTheme: Sendable, Equatable, Codable {
    /// The colours of one appearance, as `#rrggbb`.
    public struct Palette: Sendable, Equatable, Codable {
        /// The dialog's background.
        public var background: String
        /// Cards and sections on the background.
        public var surface: String
        /// Body text.
        public var text: String
        /// Secondary text (descriptions, counts).
        public var mutedText: String
        /// The primary buttons' background.
        public var primary: String
        /// The primary buttons' text.
        public var onPrimary: String
        /// Borders and separators.
        public var border: String
        /// Links.
        public var link: String

        /// A palette; every colour `#rrggbb`.
        public init(
            background: String, surface: String, text: String, mutedText: String, primary: String, onPrimary: String,
            border: String, link: String
        ) {
            self.background = background
            self.surface = surface
            self.text = text
            self.mutedText = mutedText
            self.primary = primary
            self.onPrimary = onPrimary
            self.border = border
            self.link = link
        }
    }

    /// How the two primary buttons ("Accept all", "Reject all") are drawn; both alike.
    public enum ButtonStyle: String, Sendable, Equatable, Codable, CaseIterable {
        /// Filled with ``Palette/primary``, text in ``Palette/onPrimary``.
        case filled
        /// On the background with a ``Palette/primary`` border, text in ``Palette/primary``
        /// (checked for 4.5:1 on the background).
        case outlined
    }

    /// Corner radius of the dialog, cards and buttons, in CSS pixels (0-32).
    public var cornerRadius: Int
    /// The CSS font stack of every text, such as `"Source Sans 3", Helvetica, sans-serif`: family
    /// names of ASCII letters, digits, hyphens, underscores and spaces (quoted or not) separated
    /// by commas, ending in a generic family; nil
    /// for the system font. The notice loads no font: the families must be installed (an app) or
    /// already on the page's origin; the generic family stands in otherwise.
    public var fontFamily: String?
    /// How the primary buttons are drawn.
    public var buttonStyle: ButtonStyle
    /// Colours when the system is in light mode.
    public var light: Palette
    /// Colours when the system is in dark mode.
    public var dark: Palette

    /// A theme.
    public init(
        cornerRadius: Int = 12, light: Palette = NoticeTheme.standard.light, dark: Palette = NoticeTheme.standard.dark,
        fontFamily: String? = nil, buttonStyle: ButtonStyle = .filled
    ) {
        self.cornerRadius = cornerRadius
        self.light = light
        self.dark = dark
        self.fontFamily = fontFamily
        self.buttonStyle = buttonStyle
    }

    private enum CodingKeys: String, CodingKey { case cornerRadius, light, dark, fontFamily, buttonStyle }

    /// Reads a theme; a theme written before fonts and button styles has the system font and
    /// filled buttons.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        cornerRadius = try container.decode(Int.self, forKey: .cornerRadius)
        light = try container.decode(Palette.self, forKey: .light)
        dark = try container.decode(Palette.self, forKey: .dark)
        fontFamily = try container.decodeIfPresent(String.self, forKey: .fontFamily)
        buttonStyle = try container.decodeIfPresent(ButtonStyle.self, forKey: .buttonStyle) ?? .filled
    }

    /// ConsentKit's own colours: dark blue buttons on white, light blue on near black.
    public static let standard = NoticeTheme(
        cornerRadius: 12,
        light: Palette(
            background: "#ffffff", surface: "#f3f5f8", text: "#16181d", mutedText: "#4a505a", primary: "#1746a2",
            onPrimary: "#ffffff", border: "#c5ccd6", link: "#1746a2"),
        dark: Palette(
            background: "#15171b", surface: "#20242a", text: "#f1f3f6", mutedText: "#c0c6cf", primary: "#9cc0ff",
            onPrimary: "#0a1a36", border: "#3b414a", link: "#9cc0ff"))

    /// Checks every colour's form, the radius, the font stack, and the contrasts the policy and
    /// WCAG ask.
    ///
    /// - Throws: ``NoticeThemeError`` naming the appearance, the colour and the ratio found.
    public func validate() throws(NoticeThemeError) {
        guard (0...32).contains(cornerRadius) else { throw .cornerRadius(cornerRadius) }
        if let fontFamily, !Self.isFontStack(fontFamily) { throw .fontFamily(fontFamily) }
        for (name, palette) in [("light", light), ("dark", dark)] {
            let colours = [
                ("background", palette.background), ("surface", palette.surface), ("text", palette.text),
                ("mutedText", palette.mutedText), ("primary", palette.primary), ("onPrimary", palette.onPrimary),
                ("border", palette.border), ("link", palette.link),
            ]
            for (field, value) in colours where Self.rgb(value) == nil {
                throw .malformedColour(appearance: name, field: field, value: value)
            }
            var checks: [(String, String, String, String, Double)] = [
                ("onPrimary", palette.onPrimary, "primary", palette.primary, 5),
                ("text", palette.text, "background", palette.background, 4.5),
                ("text", palette.text, "surface", palette.surface, 4.5),
                ("mutedText", palette.mutedText, "background", palette.background, 4.5),
                ("mutedText", palette.mutedText, "surface", palette.surface, 4.5),
                ("link", palette.link, "background", palette.background, 4.5),
                ("link", palette.link, "surface", palette.surface, 4.5),
            ]
            if buttonStyle == .outlined { checks.append(("primary", palette.primary, "background", palette.background, 4.5)) }
            for (field, foreground, on, background, minimum) in checks {
                let ratio = Self.contrast(foreground, background)
                if ratio < minimum {
                    throw .insufficientContrast(
                        appearance: name, field: field, on: on, ratio: (ratio * 100).rounded() / 100, minimum: minimum)
                }
            }
        }
    }

    /// The WCAG 2 contrast ratio of two `#rrggbb` colours (1-21).
    public static func contrast(_ a: String, _ b: String) -> Double {
        guard let first = rgb(a), let second = rgb(b) else { return 1 }
        let (lighter, darker) = (max(luminance(first), luminance(second)), min(luminance(first), luminance(second)))
        return (lighter + 0.05) / (darker + 0.05)
    }

    /// Whether `stack` is a CSS font stack the page can set as it is: comma-separated family
    /// names, each quoted or not, of ASCII letters, digits, hyphens, underscores and spaces, the
    /// last a generic family (notice.js checks the same before it sets the stack).
    static func isFontStack(_ stack: String) -> Bool {
        let generic: Set<String> = ["serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui", "ui-serif", "ui-sans-serif", "ui-monospace", "ui-rounded"]
        let families = stack.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard stack.count <= 200, let last = families.last, generic.contains(last) else { return false }
        return families.allSatisfy { family in
            let quoted = family.count > 2 && (family.first == "\"" && family.last == "\"" || family.first == "'" && family.last == "'")
            let name = quoted ? family.dropFirst().dropLast() : Substring(family)
            let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == " ") }
            return !name.isEmpty && allowed && !name.hasPrefix(" ") && !name.hasSuffix(" ")
        }
    }

    private static func rgb(_ hex: String) -> (Double, Double, Double)? {
        guard hex.count == 7, hex.first == "#", let value = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        return (Double((value >> 16) & 0xff) / 255, Double((value >> 8) & 0xff) / 255, Double(value & 0xff) / 255)
    }

    private static func luminance(_ colour: (Double, Double, Double)) -> Double {
        func linear(_ c: Double) -> Double { c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(colour.0) + 0.7152 * linear(colour.1) + 0.0722 * linear(colour.2)
    }
}

/// Why a ``NoticeTheme`` was refused.
public enum NoticeThemeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A colour is not `#rrggbb`.
    case malformedColour(appearance: String, field: String, value: String)
    /// A text colour does not stand out enough from its background.
    case insufficientContrast(appearance: String, field: String, on: String, ratio: Double, minimum: Double)
    /// The corner radius is outside 0-32.
    case cornerRadius(Int)
    /// The font stack is not a list of family names ending in a generic family.
    case fontFamily(String)

    /// What is wrong and where.
    public var description: String {
        switch self {
        case .malformedColour(let appearance, let field, let value):
            "theme.\(appearance).\(field): \"\(value)\" is not a colour of the form #rrggbb"
        case .insufficientContrast(let appearance, let field, let on, let ratio, let minimum):
            "theme.\(appearance).\(field) on \(on): contrast \(ratio):1 is below the \(minimum):1 the notice requires"
                + (field == "onPrimary" ? " (TCF policy Appendix B C(g): the primary buttons' text must reach 5:1)" : " (WCAG 2.1 AA)")
        case .cornerRadius(let radius):
            "theme.cornerRadius: \(radius) is outside 0-32"
        case .fontFamily(let stack):
            "theme.fontFamily: \"\(stack)\" is not a font stack: family names (quoted when they hold spaces) separated by "
                + "commas, ending in a generic family such as sans-serif"
        }
    }
}
