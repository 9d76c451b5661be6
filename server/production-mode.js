// The production server runs React, the router and the other libraries in their production builds when
// NODE_ENV is unset or empty: they would load their development builds otherwise, which draw a page more
// slowly and write development warnings to the log (docs/performance.md, "The server in production mode").
// Imported first, before anything that loads them.
process.env.NODE_ENV ||= "production";
