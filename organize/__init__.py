"""Pages for organizers: sign in, run leagues, players and events, print round sheets, and
control matches, from a browser or a phone. Server-rendered forms and htmx; every page checks
the permission rule the API checks (`organize.permissions`) and writes through the same
services (docs/organizing.md)."""
