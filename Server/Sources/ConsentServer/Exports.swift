// The request checks are a module of their own, without HTTP or storage, so that the fuzzer
// (Fuzz/, FuzzConsentd) builds them alone; consentd's users see them as part of ConsentServer.
@_exported import ConsentRequests
