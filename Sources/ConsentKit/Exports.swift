// consentd's wire types (`AppConfig`, `DebugRegion`, `ConsentdErrorBody`, the consent-event
// request and answer) are defined once, in `ConsentdAPI`, for the SDK and the server alike;
// `import ConsentKit` brings them along.
@_exported import ConsentdAPI
