"""Organizer pages, one module a topic: `home` (my leagues), `leagues` (settings,
co-organizers), `players`, `events` (stages, rounds, close and reopen, withdrawals),
`sheets` (round sheets), `matches` (match control)."""
