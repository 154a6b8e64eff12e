"""Notifications to players, by email: their registration received, approved, refused or moved
up, their event's check-in open, their table up (docs/notifications.md)."""
