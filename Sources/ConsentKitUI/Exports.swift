// The notice's brand, layout and the console's options are consentd's wire types too, defined
// once in `ConsentdAPI` so that `GET /v1/config` can carry them (decision record 0045):
// `import ConsentKitUI` brings them along, as it did when they were defined here.
@_exported import struct ConsentdAPI.NoticeTheme
@_exported import enum ConsentdAPI.NoticeThemeError
@_exported import enum ConsentdAPI.NoticeLayout
@_exported import struct ConsentdAPI.NoticeOptions
