"""HTTP in and out (DRF): authentication, permissions, serializers and views; no rules."""
